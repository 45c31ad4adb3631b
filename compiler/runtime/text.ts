/**
 * Sections are joined later (with blank lines, or as separate API blocks), so
 * a section's own final newlines would only add stray blank lines.
 */
export function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Null, empty and whitespace-only section results are left out of a prompt. */
export function hasText(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trimStart() !== '';
}

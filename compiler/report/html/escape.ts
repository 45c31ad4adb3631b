/**
 * Text into HTML. Every string that comes from a bundle — section texts,
 * names, file paths, descriptions — goes through `esc`, in element content
 * and in quoted attributes alike, so `</script>` or `<img onerror>` in a
 * prompt is shown as text, never parsed as markup.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export function number(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** 1,234 · 45.6k · 3.21M: token amounts in a table cell. */
export function amount(n: number): string {
  if (n < 10_000) return number(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(3)}%`;
}

export function plural(n: number, word: string): string {
  return `${number(n)} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Text into HTML, one way only. The page is written with the `html` tag:
 * every value put into it is escaped (`esc`) unless it is itself markup made
 * by the tag, so a value from a bundle — a name, a path, a text, and a
 * number or line the manifest may hold as a string — is text wherever it
 * lands, element content or quoted attribute. `</script>`,
 * `"><meta http-equiv=refresh>` or `<img onerror>` in a bundle is shown as
 * text, never parsed as markup.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Any value as text: a non-string (a crafted manifest's `line: "<b>"` or `tokens: {}`) is converted first, never passed through. */
export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Markup made by `html` (or `trusted`): the only thing put into the page unescaped. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A piece of the page: its literal parts are markup, each value is escaped — a list item by item, Markup as is. */
export function html(parts: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = parts[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + parts[i + 1]!;
  return new Markup(out);
}

/** Markup written in this program (the page's style and scripts), never text from a bundle. */
export function trusted(value: string): Markup {
  return new Markup(value);
}

/** Markup pieces joined by a separator given as literal markup. */
export function join(items: readonly Markup[], separator = ''): Markup {
  return new Markup(items.map((item) => item.value).join(separator));
}

function piece(value: unknown): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(piece).join('');
  return esc(value);
}

export { amount, number } from '../numbers.js';
import { number } from '../numbers.js';

export function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(3)}%`;
}

export function plural(n: number, word: string): string {
  return `${number(n)} ${word}${n === 1 ? '' : 's'}`;
}

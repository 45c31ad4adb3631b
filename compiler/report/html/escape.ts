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

export { amount, number } from '../numbers.js';
import { number } from '../numbers.js';

export function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(3)}%`;
}

export function plural(n: number, word: string): string {
  return `${number(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** How amounts read in the report and in `diff`: 1,234 · 45.6k · 3.21M. */
export function number(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function amount(n: number): string {
  if (n < 10_000) return number(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

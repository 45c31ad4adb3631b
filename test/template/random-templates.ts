/**
 * Seeded random Handlebars templates and contexts over the constructs the fast
 * path compiles: the property test's corpus, and the seed of the conformance
 * vectors both runtimes run (test/conformance/).
 */
/** mulberry32: a small seeded PRNG, so a failure names a seed that reproduces it. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['a', 'b', 'n', 'xs', 'o'];
const TEXTS = ['a', ' ', '\n', 'x y', '  \n', '-', '\t', '{{!c}}', '\n  '];
const PATHS = ['a', 'b', 'n', 'xs', 'o', 'a.b', 'o.a', 'xs.length', 'this', '.', 'this.a', '../a', '../xs', '../../b', '@index', '@key', '@first', '@last', '@root.a', '@root.xs'];
const PARAMS = ['a', 'b', 'n', 'xs', 'o', 'o.a', 'this', '../xs', '../o', '@first', '@last', '@index', '0', '"s"'];
const LEAVES: unknown[] = [0, 1, 2, '', 's', 'line\n', true, false, null, undefined, NaN];

export class Generator {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  template(depth: number): string {
    const count = 1 + Math.floor(this.random() * 4);
    let out = '';
    for (let i = 0; i < count; i++) {
      const roll = this.random();
      if (roll < 0.35) out += this.pick(TEXTS);
      else if (roll < 0.7 || depth >= 3) out += this.mustache();
      else out += this.block(depth);
    }
    return out;
  }

  private mustache(): string {
    const path = this.pick(PATHS);
    return this.chance(0.2) ? `{{{${path}}}}` : this.tag('', path);
  }

  /** A `{{…}}` tag, sometimes with whitespace control on either side. */
  private tag(open: string, body: string): string {
    return `{{${this.chance(0.15) ? '~' : ''}${open}${body}${this.chance(0.15) ? '~' : ''}}}`;
  }

  private block(depth: number): string {
    const name = this.pick(['if', 'unless', 'each', 'with']);
    const zero = name === 'if' && this.chance(0.2) ? ' includeZero=true' : '';
    // Block tags on lines of their own exercise standalone-line stripping.
    const line = this.chance(0.4) ? '\n' : '';
    let out = `${line}${this.tag('#', `${name} ${this.pick(PARAMS)}${zero}`)}${line}${this.template(depth + 1)}`;
    if (this.chance(0.25) && name !== 'each') out += `${line}${this.tag('', `else if ${this.pick(PARAMS)}`)}${line}${this.template(depth + 1)}`;
    if (this.chance(0.4)) out += `${line}${this.tag('', 'else')}${line}${this.template(depth + 1)}`;
    return `${out}${line}${this.tag('/', name)}${line}`;
  }

  context(): Record<string, unknown> {
    return Object.fromEntries(KEYS.map((key) => [key, this.value(0)]));
  }

  private value(depth: number): unknown {
    const roll = this.random();
    if (depth >= 2 || roll < 0.45) return this.pick(LEAVES);
    if (roll < 0.75) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.value(depth + 1));
    return Object.fromEntries(KEYS.filter(() => this.chance(0.5)).map((key) => [key, this.value(depth + 1)]));
  }
}

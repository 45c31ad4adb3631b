/**
 * Seeded random Handlebars templates and contexts: over the constructs the
 * fast path compiles, or (`'all'`) over every construct the build accepts —
 * `lookup` and `log` calls, sub-expressions, block parameters, sections
 * (`{{#name}}`, `{{^name}}`), literals as names, any data variable, hash
 * arguments. The property test's corpus, and the seed of the conformance
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

/**
 * What `'all'` adds: data variables the fast path leaves alone, names that are
 * literals, values for lookups and hashes. (`@../index` is the same as
 * `@_parent.index`, but in a source file `@../` reads as an include.)
 */
const MORE_PATHS = ['@_parent.index', '@_parent.key', '@_parent._parent.index', '@foo', '@root', '@index.length', '"a"', '1', 'true', 'null', '"o.a"'];
const LOOKUP_KEYS = ['"a"', '"b"', '"length"', '0', '1', 'a', 'n', '@index', '@key', 'null'];
const SECTIONS = ['a', 'b', 'n', 'xs', 'o', 'o.a', 'this', '../xs', '@index', '@first', '@root.xs', '"a"', '1'];
const LOG_LEVELS = ['', ' level="warn"', ' level="debug"', ' level=n'];

/** `'fast-path'`: the constructs the fast path compiles (the random numbers drawn are as they always were); `'all'`: every construct the build accepts. */
export type Constructs = 'fast-path' | 'all';

export class Generator {
  /** Block parameters in scope, innermost last (`'all'` only). */
  private scope: string[] = [];

  constructor(
    private readonly random: () => number,
    private readonly constructs: Constructs = 'fast-path',
  ) {}

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
      else if (roll < 0.7 || depth >= 3) out += this.constructs === 'all' ? this.anyMustache() : this.mustache();
      else out += this.constructs === 'all' ? this.anyBlock(depth) : this.block(depth);
    }
    return out;
  }

  private mustache(): string {
    const path = this.pick(PATHS);
    return this.chance(0.2) ? `{{{${path}}}}` : this.tag('', path);
  }

  // ── 'all': every construct the build accepts ────────────────────────────

  private anyMustache(): string {
    const roll = this.random();
    if (roll < 0.45) return this.chance(0.2) ? `{{{${this.anyPath()}}}}` : this.tag('', this.anyPath());
    if (roll < 0.65) return this.tag('', `lookup ${this.param()} ${this.pick(LOOKUP_KEYS)}`);
    if (roll < 0.75) return this.tag('', `log${this.chance(0.8) ? ` ${this.param()}` : ''}${this.pick(LOG_LEVELS)}`);
    // A block parameter given arguments is still a value: the arguments are ignored.
    if (roll < 0.85 && this.scope.length > 0) return this.tag('', `${this.pick(this.scope)} ${this.param()} k=${this.param()}`);
    return this.tag('', this.pick(MORE_PATHS));
  }

  private anyPath(): string {
    const roll = this.random();
    if (roll < 0.5) return this.pick(PATHS);
    if (roll < 0.75 && this.scope.length > 0) {
      const name = this.pick(this.scope);
      return this.pick([name, `${name}.a`, `${name}.length`, `@${name}`]);
    }
    return this.pick(MORE_PATHS);
  }

  /** A helper's argument: a value, a literal, or a sub-expression. */
  private param(): string {
    const roll = this.random();
    if (roll < 0.55) return this.anyPath();
    if (roll < 0.7) return this.pick(['0', '1', '"s"', '""', 'true', 'false', 'null', 'undefined']);
    if (roll < 0.9) return `(lookup ${this.anyPath()} ${this.pick(LOOKUP_KEYS)})`;
    if (roll < 0.95) return `(log ${this.anyPath()})`;
    return this.scope.length > 0 ? `(${this.pick(this.scope)})` : 'a';
  }

  private hash(name: string): string {
    let out = '';
    if (name === 'if' || name === 'unless') {
      if (this.chance(0.3)) out += ` includeZero=${this.pick(['true', 'false', 'n', 'a', '(lookup o "a")', '(log 1)'])}`;
    }
    if (this.chance(0.1)) out += ` ${this.pick(['key="k"', '__proto__=o', 'level="warn"', 'includeZero=true'])}`;
    return out;
  }

  private blockParams(): string[] {
    if (!this.chance(0.4)) return [];
    const first = this.pick(['v', 'a', 'xs', 'index', 'item']);
    return this.chance(0.5) ? [first, this.pick(['i', 'k', 'b', 'first'])] : [first];
  }

  private anyBlock(depth: number): string {
    const line = this.chance(0.3) ? '\n' : '';
    const roll = this.random();
    let open: string;
    let close: string;
    if (roll < 0.55) {
      const name = this.pick(['if', 'unless', 'each', 'with']);
      open = `${name} ${this.param()}${this.hash(name)}`;
      close = name;
    } else {
      // A section: `{{#name}}` (or `{{^name}}`) over a value, by blockHelperMissing's rules.
      const name = this.scope.length > 0 && this.chance(0.25) ? this.pick(this.scope) : this.pick(SECTIONS);
      open = name;
      close = name;
    }
    const params = this.blockParams();
    const inverted = roll >= 0.55 && this.chance(0.3);
    const outer = this.scope;
    this.scope = [...outer, ...params];
    const body = this.template(depth + 1);
    this.scope = outer;
    let out = `${line}${this.tag(inverted ? '^' : '#', `${open}${params.length > 0 ? ` as |${params.join(' ')}|` : ''}`)}${line}${body}`;
    // An inverted block takes a plain {{else}} only; others an else-chain of any block too.
    if (!inverted && this.chance(0.2)) out += `${line}${this.tag('', `else ${this.pick(['if', 'with', 'unless'])} ${this.param()}`)}${line}${this.template(depth + 1)}`;
    else if (!inverted && this.chance(0.15)) out += `${line}${this.tag('', `else ${this.pick(SECTIONS.slice(0, 5))}`)}${line}${this.template(depth + 1)}`;
    if (this.chance(0.35)) out += `${line}${this.tag('', 'else')}${line}${this.template(depth + 1)}`;
    return `${out}${line}${this.tag('/', close)}${line}`;
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

/** The fast path's output (see fast-path.ts): indented lines, the temporaries they assign, the helpers they call. */
import type { Helper } from './prelude.js';
import type { RenderBody } from './fast-path.js';

/**
 * What the accumulator of a fold holds so far: nothing yet, a value of any
 * type, or certainly a string (after which `+` is plain concatenation and the
 * pieces of a nested block can be appended one by one).
 */
export type State = 'uninit' | 'raw' | 'str';

export class CodeLines {
  private lines: string[] = [];
  private depth = 0;
  private counter = 0;
  private readonly temps: string[] = [];
  private readonly helpers = new Set<Helper>();

  constructor(private readonly indent: string) {}

  /** Lines written (nested) elsewhere, as they are. */
  push(lines: readonly string[]): void {
    this.lines.push(...lines);
  }

  /** A temporary a block turned out not to need. */
  dropTemp(name: string): void {
    this.temps.splice(this.temps.indexOf(name), 1);
  }

  body(): RenderBody {
    return { temps: this.temps, lines: this.lines, helpers: this.helpers };
  }

  temp(prefix: string): string {
    const name = `${prefix}${++this.counter}`;
    this.temps.push(name);
    return name;
  }

  /** Marks a helper as called, or a shared scratch variable (`v`, `t`: each read right after it is set) as assigned. */
  use(name: Helper | 'v' | 't'): string {
    if (name === 'v' || name === 't') {
      if (!this.temps.includes(name)) this.temps.unshift(name);
    } else {
      this.helpers.add(name);
    }
    return name;
  }

  line(text: string): void {
    this.lines.push(this.indent + '  '.repeat(this.depth) + text);
  }

  /** Runs `emit` `levels` deeper, collecting its lines instead of writing them. */
  nested(emit: () => State, levels = 1): { lines: string[]; state: State } {
    const saved = this.lines;
    this.lines = [];
    this.depth += levels;
    try {
      const state = emit();
      return { lines: this.lines, state };
    } finally {
      this.lines = saved;
      this.depth -= levels;
    }
  }

  /** Writes `open`, the nested lines, and the closing brace; `parts` alternates more headers and lines. */
  wrap(open: string, lines: string[], ...parts: (string | string[])[]): void {
    this.line(open);
    this.lines.push(...lines);
    for (const part of parts) {
      if (typeof part === 'string') this.line(part);
      else this.lines.push(...part);
    }
    this.line('}');
  }
}

/**
 * The Python form of a template the JavaScript side renders with Handlebars'
 * own compiled code (fallback.ts): `lookup` and `log` calls, sub-expressions,
 * block parameters, sections (`{{#name}}…{{/name}}`), any data variable or
 * hash argument — and fast-path templates nested deeper than the
 * structured Python body can indent (codegen-python.ts).
 *
 * Its output must equal what Handlebars' code renders, so it is generated the
 * way Handlebars generates that code: from the opcodes of Handlebars' own
 * `Compiler` (the same pass `precompile` runs: classification of every call,
 * block-parameter indexes, literals as names, programs shared by identical
 * opcodes), translated one by one as its `JavaScriptCompiler` translates them,
 * to one flat Python function per program, calling the Handlebars runtime's
 * twin (`prompt_build/_handlebars.py`). Quirks reproduced on purpose:
 *
 * - A program joins its pieces as Handlebars' `mergeSource` does: a left
 *   fold with JavaScript `+`, except around a section's value
 *   (`ambiguousBlockValue`, the one statement Handlebars cannot inline),
 *   where a `buffer` starting at `""` (or at the fold of what precedes) takes
 *   each run of pieces folded on its own (`buffer += a + b`).
 * - A program of exactly one node that is such a section returns its value
 *   as it is; an identical program elsewhere reuses that code, whatever its
 *   own node count (Handlebars' `matchExistingProgram`).
 * - A hash argument named `__proto__` is dropped, its value never computed.
 *
 * Functions, the one thing Handlebars calls that JSON cannot hold, are not
 * modelled: a context is JSON.
 */
import Handlebars from 'handlebars';
import { pyNumber, pyString } from './python-expressions.js';

interface Opcode {
  opcode: string;
  args: unknown[];
}

/** What `new Handlebars.Compiler().compile(ast, options)` returns (its typings declare none of it). */
interface Environment {
  opcodes: Opcode[];
  children: Environment[];
  /** The program's body is one node (comments and emptied text count). */
  isSimple: boolean;
  /** Somewhere below reads `../`: the render keeps Handlebars' `depths`. */
  useDepths?: boolean;
  equals(other: Environment): boolean;
}

/** The options `precompileChecked` compiles with, and `precompile`'s default `data: true`. */
const COMPILE_OPTIONS = { noEscape: true, strict: false, data: true };

/** The names the program functions call, bound once in `create(rt)` (see `_handlebars.py`). */
export const HANDLEBARS_BINDINGS = [
  '    U, S, P, ADD, DEPTH = rt.U, rt.S, rt.P, rt.ADD, rt.DEPTH',
  '    HB = rt.HB',
  '    FOLD, APPEND, GP, GFP, SELF, DATA, BP, PROG = HB.FOLD, HB.APPEND, HB.GP, HB.GFP, HB.SELF, HB.DATA, HB.BP, HB.PROG',
  '    IF, UNLESS, WITH, EACH, LOOKUP, LOG, BHM = HB.IF, HB.UNLESS, HB.WITH, HB.EACH, HB.LOOKUP, HB.LOG, HB.BHM',
];

export interface HandlebarsPython {
  /** `def` lines of every program, indented for the body of `create(rt)`; the template's own is `main`. */
  definitions: string[];
  /** The expression `render` returns, of `ctx`. */
  result: string;
}

/** Compiles `source` (a template the build accepted) with Handlebars' compiler and translates its programs. */
export function compileHandlebarsPython(source: string): HandlebarsPython {
  const Compiler = (Handlebars as unknown as { Compiler: new () => { compile(ast: unknown, options: object): Environment } }).Compiler;
  // The compiler rewrites the AST it is given (literals as names…): a fresh parse, as `precompile` makes.
  const main = new Compiler().compile(Handlebars.parse(source), { ...COMPILE_OPTIONS });
  const table = new ProgramTable();
  const mainLines = table.define(main, 'main');
  const depths = main.useDepths ? '[ctx]' : 'None';
  return {
    definitions: [...table.definitions.flat(), ...mainLines],
    // `'' + templateSpec.main(…)`, with `initData`'s first frame and no block parameters yet.
    result: `S(main(ctx, {"root": ctx}, [], ${depths}))`,
  };
}

/** Every program once, numbered in the order Handlebars' `compileChildren` numbers them. */
class ProgramTable {
  readonly definitions: string[][] = [];
  /** By number, set once a program is compiled: what a later identical program reuses. */
  private readonly environments: (Environment | undefined)[] = [];

  define(environment: Environment, name: string): string[] {
    const children = environment.children.map((child) => {
      const existing = this.environments.findIndex((other) => other !== undefined && other.equals(child));
      if (existing !== -1) return `p${existing}`;
      const index = this.definitions.push([]) - 1;
      this.definitions[index] = this.define(child, `p${index}`);
      this.environments[index] = child;
      return `p${index}`;
    });
    return new ProgramWriter(environment, children).write(name);
  }
}

/** A value on the compiler's stack: a Python expression, and the statements that must run before it (helper calls). */
interface Entry {
  code: string;
  setup: string[];
  /** A section's value: appended as a statement of its own, not inline (see `returnLines`). */
  statement?: boolean;
}

/** One appended piece of the program's output. */
interface Piece {
  code: string;
  statement: boolean;
}

const INDENT = '    ';
const BODY = INDENT.repeat(2);

/** One program's opcodes → `def name(c, data, bp, depths):`, as JavaScriptCompiler runs them. */
class ProgramWriter {
  private readonly stack: Entry[] = [];
  private readonly hashes: Map<string, Entry>[] = [];
  private hash: Map<string, Entry> | null = null;
  private lastContext = 0;
  private temps = 0;
  private readonly lines: string[] = [];
  private readonly pieces: Piece[] = [];

  constructor(
    private readonly environment: Environment,
    private readonly children: readonly string[],
  ) {}

  write(name: string): string[] {
    for (const { opcode, args } of this.environment.opcodes) this.run(opcode, args);
    return [`${INDENT}def ${name}(c, data, bp, depths):`, ...this.lines, ...this.returnLines().map((line) => BODY + line), ''];
  }

  private run(opcode: string, args: unknown[]): void {
    switch (opcode) {
      case 'appendContent':
        this.pieces.push({ code: pyString(args[0] as string), statement: false });
        return;
      case 'append': {
        const entry = this.pop();
        this.emit(entry.setup);
        // `value != null ? rt.text(value) : ""`: P is that for JSON values.
        this.pieces.push(entry.statement ? { code: entry.code, statement: true } : { code: `P(${entry.code})`, statement: false });
        return;
      }
      case 'getContext':
        this.lastContext = args[0] as number;
        return;
      case 'pushContext':
        this.push(this.contextName(this.lastContext));
        return;
      case 'lookupOnContext': {
        const [parts, falsy] = args as [string[], boolean | null];
        this.push(chain(this.contextName(this.lastContext), parts, falsy ? 'GFP' : 'GP'));
        return;
      }
      case 'lookupBlockParam': {
        const [[depth, index], parts] = args as [[number, number], string[]];
        this.push(chain(`BP(bp, ${depth}, ${index})`, parts.slice(1), 'GP'));
        return;
      }
      case 'lookupData': {
        const [depth, parts] = args as [number, string[]];
        this.push(chain(depth ? `DATA(data, ${depth})` : 'data', parts, 'GFP'));
        return;
      }
      case 'resolvePossibleLambda':
        // `container.lambda(value, this)` calls a function; JSON has none.
        return;
      case 'pushString':
        this.push(pyString(args[0] as string));
        return;
      case 'pushLiteral':
        this.push(literal(args[0]));
        return;
      case 'pushProgram': {
        const guid = args[0] as number | null | undefined;
        this.push(guid == null ? 'None' : `PROG(${this.children[guid]}, data, bp, depths)`);
        return;
      }
      case 'emptyHash':
        this.push(args[0] ? 'U' : '{}');
        return;
      case 'pushHash':
        if (this.hash !== null) this.hashes.push(this.hash);
        this.hash = new Map();
        return;
      case 'assignToHash': {
        const value = this.pop();
        const key = args[0] as string;
        // `hash.values[key] = value`: pairs are assigned last to first, so the first of two equal keys wins;
        // `__proto__` sets no property, and `objectLiteral` writes own keys only.
        if (key !== '__proto__') this.hash!.set(key, value);
        return;
      }
      case 'popHash': {
        const pairs = [...this.hash!.entries()];
        this.hash = this.hashes.pop() ?? null;
        this.stack.push({
          code: `{${pairs.map(([key, value]) => `${pyString(key)}: ${value.code}`).join(', ')}}`,
          setup: pairs.flatMap(([, value]) => value.setup),
        });
        return;
      }
      case 'invokeKnownHelper':
        this.invokeKnownHelper(args[0] as number, args[1] as string);
        return;
      case 'invokeAmbiguous': {
        // `helpers[name] || value`, else helperMissing (undefined): no runtime helper has such a name,
        // and a missing value prints and tests like undefined.
        const value = this.pop();
        this.pop();
        this.pop();
        this.stack.push(value);
        return;
      }
      case 'blockValue':
      case 'ambiguousBlockValue': {
        const [hash, inverse, program] = [this.pop(), this.pop(), this.pop()];
        const value = this.pop();
        const call = `BHM(c, ${value.code}, ${program.code}, ${inverse.code}, data, bp)`;
        this.stack.push({ ...this.called(call, [value, hash]), statement: opcode === 'ambiguousBlockValue' });
        return;
      }
      default:
        // Partials, decorators, escaping, string params and unknown helpers: refused by the build before this runs.
        throw new Error(`python target: unexpected Handlebars opcode ${opcode}`);
    }
  }

  /** `helpers.name.call(this, ...params, options)` for the built-in helpers the build lets a template call. */
  private invokeKnownHelper(count: number, name: string): void {
    const [hash, inverse, program] = [this.pop(), this.pop(), this.pop()];
    const params: Entry[] = [];
    for (let i = 0; i < count; i++) params.unshift(this.pop());
    const [first] = params;
    const self = 'SELF(c)';
    let call: string;
    switch (name) {
      case 'if':
      case 'unless':
        call = `${name.toUpperCase()}(${self}, ${first!.code}, ${program.code}, ${inverse.code}, ${hash.code})`;
        break;
      case 'with':
      case 'each':
        call = `${name.toUpperCase()}(${self}, ${first!.code}, ${program.code}, ${inverse.code}, data)`;
        break;
      case 'lookup':
        call = `LOOKUP(${params.map((p) => p.code).join(', ')})`;
        break;
      case 'log':
        call = `LOG(${hash.code}, data, ${tuple(params.map((p) => p.code))})`;
        break;
      default:
        throw new Error(`python target: unexpected call of helper ${name}`);
    }
    this.stack.push(this.called(call, [...params, hash]));
  }

  /** A helper call, run (into a temporary) after what its arguments need, in their order. */
  private called(call: string, inputs: readonly Entry[]): Entry {
    const temp = `t${++this.temps}`;
    return { code: temp, setup: [...inputs.flatMap((input) => input.setup), `${temp} = ${call}`] };
  }

  /** `depth0`, or `depths[n]` for `../`. */
  private contextName(depth: number): string {
    return depth === 0 ? 'c' : `DEPTH(depths, ${depth})`;
  }

  private push(code: string): void {
    this.stack.push({ code, setup: [] });
  }

  private pop(): Entry {
    const entry = this.stack.pop();
    if (entry === undefined) throw new Error('python target: Handlebars opcode stack underflow');
    return entry;
  }

  private emit(setup: readonly string[]): void {
    for (const line of setup) this.lines.push(BODY + line);
  }

  /**
   * Handlebars' `mergeSource`: pieces that are all inline are one
   * `return a + b + …`; a section's value is a statement
   * (`if (v != null) buffer += v`), and the runs of pieces around it join a
   * buffer, each folded on its own. A one-node program returns its section's
   * value as it is.
   */
  private returnLines(): string[] {
    const pieces = this.pieces;
    if (!pieces.some((piece) => piece.statement)) return [`return ${fold(pieces.map((piece) => piece.code))}`];
    if (this.environment.isSimple) return [`return P(${pieces[0]!.code})`];
    const segments: ({ section: string } | { run: string[] })[] = [];
    for (const piece of pieces) {
      const last = segments.at(-1);
      if (piece.statement) segments.push({ section: piece.code });
      else if (last !== undefined && 'run' in last) last.run.push(piece.code);
      else segments.push({ run: [piece.code] });
    }
    const first = segments[0]!;
    const last = segments.at(-1)!;
    // A leading run starts the buffer (`buffer = a + b`); what follows the last section is folded onto it (`return buffer + a + b`).
    const lines = ['run' in first ? `b = ${fold(first.run)}` : 'b = ""'];
    const tail = 'run' in last ? last.run : null;
    for (const segment of segments.slice('run' in first ? 1 : 0, tail === null ? undefined : -1)) {
      lines.push('section' in segment ? `b = APPEND(b, ${segment.section})` : `b = ADD(b, ${fold(segment.run)})`);
    }
    lines.push(tail === null ? 'return b' : `return FOLD(${tuple(['b', ...tail])})`);
    return lines;
  }
}

/** The left fold of `codes` with JavaScript `+`: the one piece itself, or FOLD over a tuple; "" for none. */
function fold(codes: readonly string[]): string {
  if (codes.length === 0) return '""';
  if (codes.length === 1) return codes[0]!;
  return `FOLD(${tuple(codes)})`;
}

/** `base` looked up by `parts` in turn (`GP`: own properties, stopping at null; `GFP`: stopping at any falsy value). */
function chain(base: string, parts: readonly string[], lookup: 'GP' | 'GFP'): string {
  if (parts.length === 0) return base;
  return `${lookup}(${base}, ${tuple(parts.map(pyString))})`;
}

/** A Python tuple display of `codes`. */
function tuple(codes: readonly string[]): string {
  return codes.length === 1 ? `(${codes[0]},)` : `(${codes.join(', ')})`;
}

/** `pushLiteral`'s argument: a number or boolean, or the source text `undefined` / `null`. */
function literal(value: unknown): string {
  if (value === 'undefined') return 'U';
  if (value === 'null') return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumber(value);
  throw new Error(`python target: unexpected literal ${String(value)}`);
}

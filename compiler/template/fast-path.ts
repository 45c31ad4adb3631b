/**
 * The fast path: a Handlebars AST compiled straight to the body of a plain
 * JavaScript render function, for the templates `support.ts` accepts.
 *
 * The output must equal `Handlebars.compile(source, { noEscape: true })(ctx)`
 * byte for byte, so the generated code reproduces what Handlebars' compiled
 * code does, quirks included:
 *
 * - A program's result is a left fold with JavaScript `+` over its pieces,
 *   starting from the first piece, not from "": `{{a}}{{b}}` with a=1, b=2
 *   renders "3". A block's result enters its parent's fold as one value, and
 *   only the top level converts the result to a string.
 * - Values print as `value ?? ""` through `+`: no escaping, no `toHTML`.
 *   A value that is not a string first passes `rt.text`, which keeps `+`'s
 *   result and turns its TypeError into a RenderError.
 * - Lookups see own properties only (`lookupProperty`), with Handlebars'
 *   guard on prototypes' own `constructor`.
 * - A function value is called as Handlebars calls it (a lambda, or a helper
 *   for a bare `{{name}}`).
 * - Inside a block, `this` is `nullContext` when the context is null, and
 *   `../` counts context changes at run time, not nesting (Handlebars' `depths`).
 */
import {
  isSimpleId,
  outputStatements,
  type BlockStatement,
  type Expression,
  type Literal,
  type MustacheStatement,
  type PathExpression,
  type Program,
  type Statement,
} from './ast.js';
import type { Helper } from './prelude.js';

export interface RenderBody {
  /** Variables the body assigns, declared once at the top of `render`. */
  temps: string[];
  /** Statements of `render` after the required-input checks, ending in `return`, indented for the function body. */
  lines: string[];
  /** Module-level helpers the body calls. */
  helpers: Set<Helper>;
}

/** `section`: the section's name, for the error a value that cannot be printed throws. */
export function compileRenderBody(ast: Program, indent: string, section: string): RenderBody {
  return new RenderCompiler(ast, indent, section).compile();
}

/**
 * What the accumulator of a fold holds so far: nothing yet, a value of any
 * type, or certainly a string (after which `+` is plain concatenation and the
 * pieces of a nested block can be appended one by one).
 */
type State = 'uninit' | 'raw' | 'str';

/** A piece of output as a JavaScript expression. */
interface Expr {
  code: string;
  /** Certainly a string at run time. */
  str: boolean;
  /** Safe as an operand of `+` without parentheses. */
  atomic: boolean;
}

/** One `#each` iteration: the variables holding its data (`@index`, `@key`, `@first`, `@last`). */
interface Frame {
  index: string;
  keys: string;
  count: string;
  parent: Frame | null;
}

interface Scope {
  /** Variable holding the current context (Handlebars' `depth0`). */
  ctx: string;
  /** The context may be null or undefined (an `#each` item). */
  nullable: boolean;
  /** Variable holding Handlebars' `depths` array, where a `../` below needs it. */
  depths: string | null;
  frame: Frame | null;
}

/** What a value can be: only a `value` may be a function that needs calling; a `boolean` needs no truthiness test. */
type ValueKind = 'value' | 'literal' | 'data' | 'boolean';

interface Value {
  code: string;
  kind: ValueKind;
}

class RenderCompiler {
  private lines: string[] = [];
  private depth = 0;
  private counter = 0;
  private readonly temps: string[] = [];
  private readonly helpers = new Set<Helper>();

  constructor(
    private readonly ast: Program,
    private readonly indent: string,
    private readonly section: string,
  ) {}

  compile(): RenderBody {
    const root: Scope = { ctx: 'ctx', nullable: false, depths: null, frame: null };
    if (usesDepths(this.ast)) {
      root.depths = this.temp('d');
      this.line(`${root.depths} = [ctx];`);
    }
    if (!needsStatements(this.ast)) {
      const result = this.programExpr(this.ast, root);
      this.line(`return ${result.str ? result.code : `"" + ${operand(result)}`};`);
    } else {
      const out = this.temp('o');
      const state = this.emitProgram(this.ast, out, 'uninit', root);
      this.line(`return ${state === 'str' ? out : `"" + ${out}`};`);
    }
    return { temps: this.temps, lines: this.lines, helpers: this.helpers };
  }

  // ── expressions: programs without #each ─────────────────────────────────

  private programExpr(program: Program | undefined, scope: Scope): Expr {
    const pieces = outputStatements(program).map((node) => this.statementExpr(node, scope));
    const [first] = pieces;
    if (first === undefined) return { code: '""', str: true, atomic: true };
    if (pieces.length === 1) return first;
    return { code: pieces.map(operand).join(' + '), str: pieces.some((p) => p.str), atomic: false };
  }

  private statementExpr(node: Statement, scope: Scope): Expr {
    if (node.type === 'ContentStatement') return { code: JSON.stringify(node.value), str: true, atomic: true };
    if (node.type === 'MustacheStatement') return { code: this.printed(node, scope), str: false, atomic: true };
    if (node.type === 'BlockStatement') return this.blockExpr(node, scope);
    throw new Error(`fast path: unexpected ${node.type}`);
  }

  /** `#if`, `#unless`, `#with` as a conditional expression. */
  private blockExpr(node: BlockStatement, scope: Scope): Expr {
    let test: string;
    let a: Expr;
    let b: Expr;
    if (blockName(node) === 'with') {
      const value = this.temp('w');
      test = `${this.use('present')}(${value} = ${this.blockParam(node, scope)})`;
      a = this.branchExpr(node.program, scope, { ctx: value, nullable: false });
      b = this.branchExpr(node.inverse, scope, null);
    } else {
      const [then, otherwise] = this.conditional(node);
      test = this.condition(node, scope);
      a = this.branchExpr(then, scope, null);
      b = this.branchExpr(otherwise, scope, null);
    }
    return { code: `(${test} ? ${a.code} : ${b.code})`, str: a.str && b.str, atomic: true };
  }

  /** A block's program or inverse, with the context (and depths) it runs in bound first. */
  private branchExpr(program: Program | undefined, scope: Scope, context: Context | null): Expr {
    if (program === undefined || outputStatements(program).length === 0) return { code: '""', str: true, atomic: true };
    const { inner, bindings } = this.enter(program, scope, context);
    const body = this.programExpr(program, inner);
    const used = this.usedBindings(bindings, body.code);
    if (used.length === 0) return { ...body, code: operand(body), atomic: true };
    return { code: `(${used.join(', ')}, ${body.code})`, str: body.str, atomic: true };
  }

  // ── statements: programs with #each ──────────────────────────────────────

  /** Appends `program`'s pieces to the fold in `target`; returns the fold's new state. */
  private emitProgram(program: Program, target: string, state: State, scope: Scope): State {
    let run: Expr[] = [];
    for (const node of outputStatements(program)) {
      if (node.type === 'BlockStatement' && needsStatements(node)) {
        state = this.flush(run, target, state);
        run = [];
        state = blockName(node) === 'each' ? this.emitEach(node, target, state, scope) : this.emitBlock(node, target, state, scope);
      } else {
        run.push(this.statementExpr(node, scope));
      }
    }
    return this.flush(run, target, state);
  }

  private flush(run: Expr[], target: string, state: State): State {
    const [first] = run;
    if (first === undefined) return state;
    const code = run.map(operand).join(' + ');
    if (state === 'uninit') this.line(`${target} = ${code};`);
    // `t += a + b` adds a + b first; that equals the fold only when a is a string.
    else if (run.length === 1 || first.str) this.line(`${target} += ${code};`);
    else this.line(`${target} = ${target} + ${code};`);
    return state === 'str' || run.some((p) => p.str) ? 'str' : 'raw';
  }

  /** `#if`, `#unless`, `#with` whose branches hold an `#each`. */
  private emitBlock(node: BlockStatement, target: string, state: State, scope: Scope): State {
    let test: string;
    let then: Program | undefined;
    let otherwise: Program | undefined;
    let context: Context | null = null;
    if (blockName(node) === 'with') {
      const value = this.temp('w');
      this.line(`${value} = ${this.blockParam(node, scope)};`);
      test = `${this.use('present')}(${value})`;
      [then, otherwise, context] = [node.program, node.inverse, { ctx: value, nullable: false }];
    } else {
      test = this.condition(node, scope);
      [then, otherwise] = this.conditional(node);
    }
    const a = this.nested(() => this.emitBranch(then, target, state, scope, context));
    const b = this.nested(() => this.emitBranch(otherwise, target, state, scope, null));
    if (b.lines.length === 0) {
      if (a.lines.length > 0) this.wrap(`if (${test}) {`, a.lines);
    } else if (a.lines.length === 0) {
      this.wrap(`if (!${test}) {`, b.lines);
    } else {
      this.wrap(`if (${test}) {`, a.lines, '} else {', b.lines);
    }
    return a.state === 'str' && b.state === 'str' ? 'str' : 'raw';
  }

  /**
   * `#each`, as Handlebars' helper runs it: arrays by index (skipping holes),
   * other iterables in order, other objects by `Object.keys`; each result
   * appended to a string that starts as ""; the inverse when nothing ran.
   */
  private emitEach(node: BlockStatement, target: string, state: State, scope: Scope): State {
    const [list, keys, count, index] = [this.temp('x'), this.temp('k'), this.temp('n'), this.temp('i')];
    this.line(`${list} = ${this.blockParam(node, scope)};`);
    this.line(`${keys} = null;`);
    this.line(`${count} = 0;`);
    // The loop's string is the target itself unless the target holds a non-string value.
    const out = state === 'raw' ? this.temp('o') : target;
    if (state !== 'str') this.line(`${out} = "";`);
    const body = node.program;
    this.wrap(`if (${list} && typeof ${list} === "object") {`, this.nested(() => {
      this.line(`if (!${this.use('isArray')}(${list})) [${keys}, ${list}] = ${this.use('entries')}(${list});`);
      this.line(`${count} = ${list}.length;`);
      if (outputStatements(body).length === 0) return 'str';
      const item = this.temp('c');
      const frame: Frame = { index, keys, count, parent: scope.frame };
      const loop = this.nested(() => {
        this.line(`if (!(${index} in ${list})) continue;`);
        this.line(`${item} = ${list}[${index}];`);
        return this.emitBranch(body, out, 'str', { ...scope, frame }, { ctx: item, nullable: true });
      });
      this.wrap(`for (${index} = 0; ${index} < ${count}; ${index}++) {`, loop.lines);
      return 'str';
    }).lines);
    let loopState: State = 'str';
    if (outputStatements(node.inverse).length > 0) {
      const inverse = this.nested(() => this.emitBranch(node.inverse, out, state === 'str' ? 'str' : 'uninit', scope, null));
      this.wrap(`if (${count} === 0) {`, inverse.lines);
      loopState = inverse.state;
    }
    if (out === target) return loopState;
    this.line(`${target} += ${out};`);
    return loopState;
  }

  /** Appends one branch of a block (its whole result, as one piece) to the fold in `target`. */
  private emitBranch(program: Program | undefined, target: string, state: State, scope: Scope, context: Context | null): State {
    const pieces = outputStatements(program);
    if (program === undefined || pieces.length === 0) {
      if (state === 'uninit') this.line(`${target} = "";`);
      else if (state === 'raw') this.line(`${target} += "";`);
      return 'str';
    }
    const { inner, bindings } = this.enter(program, scope, context);
    const body = this.nested(() => this.emitBranchBody(program, pieces, target, state, inner), 0);
    for (const binding of this.usedBindings(bindings, body.lines.join('\n'))) this.line(`${binding};`);
    this.lines.push(...body.lines);
    return body.state;
  }

  private emitBranchBody(program: Program, pieces: Statement[], target: string, state: State, scope: Scope): State {
    if (!needsStatements(program)) return this.flush([this.programExpr(program, scope)], target, state);
    // Appending the branch's pieces one by one equals appending its result
    // only if the fold is fresh, or the branch starts with text (so its own
    // fold is a string from its first piece on), or it has one piece.
    if (state === 'uninit' || pieces.length === 1 || pieces[0]?.type === 'ContentStatement') {
      return this.emitProgram(program, target, state, scope);
    }
    const own = this.temp('o');
    const ownState = this.emitProgram(program, own, 'uninit', scope);
    this.line(`${target} += ${own};`);
    return ownState === 'str' || state === 'str' ? 'str' : 'raw';
  }

  // ── scopes, paths and values ─────────────────────────────────────────────

  /**
   * The scope a block's program runs in, and the assignments that set it up.
   * Handlebars runs `#if`/`#unless` branches and inverses on `this`, which is
   * `nullContext` for a null context; it pushes the new context onto `depths`
   * unless it equals (`!=`) the current one.
   */
  private enter(program: Program, scope: Scope, context: Context | null): { inner: Scope; bindings: Binding[] } {
    const bindings: Binding[] = [];
    let { ctx, nullable } = scope;
    if (context !== null) {
      ({ ctx, nullable } = context);
    } else if (nullable) {
      const self = this.temp('c');
      bindings.push({ name: self, code: this.self(scope) });
      [ctx, nullable] = [self, false];
    }
    let depths: string | null = null;
    if (scope.depths !== null && usesDepths(program)) {
      depths = this.temp('d');
      bindings.push({ name: depths, code: `${this.use('push')}(${ctx}, ${scope.depths})` });
    }
    return { inner: { ctx, nullable, depths, frame: scope.frame }, bindings };
  }

  /** The assignments `code` needs (directly or through a later binding); the others' variables are dropped. */
  private usedBindings(bindings: Binding[], code: string): string[] {
    const used: string[] = [];
    let reads = code;
    for (const { name, code: value } of [...bindings].reverse()) {
      if (new RegExp(`\\b${name}\\b`).test(reads)) {
        used.unshift(`${name} = ${value}`);
        reads += `\n${value}`;
      } else {
        this.temps.splice(this.temps.indexOf(name), 1);
      }
    }
    return used;
  }

  /** Handlebars' `this` for helper calls: the context, or `nullContext` when it is null. */
  private self(scope: Scope): string {
    return scope.nullable ? `(${scope.ctx} ?? ${this.use('NC')})` : scope.ctx;
  }

  /** `#if`/`#unless`: which program runs when the condition holds. */
  private conditional(node: BlockStatement): [Program | undefined, Program | undefined] {
    return blockName(node) === 'if' ? [node.program, node.inverse] : [node.inverse, node.program];
  }

  /** Handlebars' `#if` test: falsy or an empty array fails; 0 passes with `includeZero`. */
  private condition(node: BlockStatement, scope: Scope): string {
    const value = this.param(node, scope);
    if (value.kind === 'boolean') return value.code;
    const includeZero = node.hash?.pairs.some((pair) => pair.key === 'includeZero' && literalValue(pair.value as Literal));
    return `${this.use(includeZero ? 'present' : 'truthy')}(${this.resolve(value, scope)})`;
  }

  /** The block's parameter, called first if it is a function (as the built-in helpers do). */
  private blockParam(node: BlockStatement, scope: Scope): string {
    return this.resolve(this.param(node, scope), scope);
  }

  private param(node: BlockStatement, scope: Scope): Value {
    const [param] = node.params;
    if (param === undefined) throw new Error('fast path: block without parameter');
    return this.expression(param, scope);
  }

  private resolve(value: Value, scope: Scope): string {
    return value.kind === 'value' ? `${this.use('fv')}(${value.code}, ${this.self(scope)})` : value.code;
  }

  private expression(node: Expression, scope: Scope): Value {
    if (node.type === 'PathExpression') return this.path(node, scope);
    if (node.type === 'SubExpression') throw new Error('fast path: unexpected sub-expression');
    return { code: literalCode(node), kind: 'literal' };
  }

  /** A path's value, looked up as Handlebars does (`!= null` between segments; `&&` for data paths). */
  private path(path: PathExpression, scope: Scope): Value {
    if (path.data) {
      const [head = '', ...rest] = path.parts;
      const base = head === 'root' ? 'ctx' : frameVariable(head, scope.frame);
      if (rest.length === 0 && head !== 'root') return { code: base, kind: head === 'first' || head === 'last' ? 'boolean' : 'data' };
      return { code: rest.reduce((code, part) => this.lookup(code, part, true), base), kind: 'value' };
    }
    if (path.depth > 0 && scope.depths === null) throw new Error('fast path: ../ without depths');
    const base = path.depth === 0 ? scope.ctx : `${scope.depths}[${path.depth}]`;
    return { code: path.parts.reduce((code, part) => this.lookup(code, part, false), base), kind: 'value' };
  }

  /**
   * `parent[key]` by Handlebars' `lookupProperty`: own properties only. The
   * check is written out at each site rather than called, so every site keeps
   * a monomorphic inline cache; and for a plain object (prototype
   * `Object.prototype`) a non-null value is own unless `Object.prototype` has
   * the key, which V8 folds to a constant, so the costly `hasOwnProperty` call
   * only runs for other objects. `falsy`: stop at any falsy parent (data paths).
   */
  private lookup(parent: string, key: string, falsy: boolean): string {
    const quoted = JSON.stringify(key);
    // A prototype's own `constructor` needs Handlebars' extra guard: kept in a helper for this rare key.
    if (key === 'constructor') return `${this.use(falsy ? 'lf' : 'lp')}(${parent}, ${quoted})`;
    this.use('v');
    const simple = IDENTIFIER.test(parent);
    if (!simple) this.use('t');
    const [test, p] = simple ? [parent, parent] : [`(t = ${parent})`, 't'];
    const missing = falsy ? `!${test}` : `${test} == null`;
    const member = IDENTIFIER.test(key) ? `.${key}` : `[${quoted}]`;
    const own = `(${this.use('gp')}(${p}) === ${this.use('OP')} && !(${quoted} in OP)) || ${this.use('own')}.call(${p}, ${quoted})`;
    return `(${missing} ? ${p} : (v = ${p}${member}) == null ? v : ${own} ? v : undefined)`;
  }

  /**
   * A mustache's piece of output: null and undefined print nothing, a string
   * is itself, and anything else goes through `rt.text`, which hands `+` the
   * primitive it would have computed, or throws a RenderError naming the
   * value where `+` would throw a bare TypeError. Data variables are numbers,
   * strings or booleans already.
   */
  private printed(node: MustacheStatement, scope: Scope): string {
    const value = this.mustacheValue(node, scope);
    if (value.kind !== 'value') return `(${value.code} ?? "")`;
    const name = JSON.stringify((node.path as PathExpression).original);
    return `(typeof (v = ${value.code}) === "string" ? v : v == null ? "" : rt.text(v, ${JSON.stringify(this.section)}, ${name}))`;
  }

  /**
   * A mustache's value. A function is called: a bare name is ambiguous
   * between helper and value, and Handlebars calls it as a helper (`this`,
   * plus an options object); any other path calls it as a lambda.
   */
  private mustacheValue(node: MustacheStatement, scope: Scope): Value {
    const path = node.path as PathExpression;
    const value = this.path(path, scope);
    if (value.kind !== 'value') return value;
    this.use('v');
    if (!isSimpleId(path)) return { code: `(typeof (v = ${value.code}) === "function" ? v.call(${scope.ctx}) : v)`, kind: 'value' };
    const { start, end } = node.loc;
    const call = `${this.use('amb')}(v, ${this.self(scope)}, ${JSON.stringify(path.parts[0])}, ${this.frameObject(scope.frame)}, ${start.line}, ${start.column}, ${end.line}, ${end.column})`;
    return { code: `(typeof (v = ${value.code}) === "function" ? ${call} : v)`, kind: 'value' };
  }

  /** Handlebars' data frame as an object, built only when a function value is called as a helper. */
  private frameObject(frame: Frame | null): string {
    if (frame === null) return '{ root: ctx }';
    const fields = ['key', 'index', 'first', 'last'].map((name) => `${name}: ${frameVariable(name, frame)}`);
    return `{ root: ctx, _parent: ${this.frameObject(frame.parent)}, ${fields.join(', ')} }`;
  }

  // ── output plumbing ──────────────────────────────────────────────────────

  private temp(prefix: string): string {
    const name = `${prefix}${++this.counter}`;
    this.temps.push(name);
    return name;
  }

  /** Marks a helper as called, or a shared scratch variable (`v`, `t`: each read right after it is set) as assigned. */
  private use(name: Helper | 'v' | 't'): string {
    if (name === 'v' || name === 't') {
      if (!this.temps.includes(name)) this.temps.unshift(name);
    } else {
      this.helpers.add(name);
    }
    return name;
  }

  private line(text: string): void {
    this.lines.push(this.indent + '  '.repeat(this.depth) + text);
  }

  /** Runs `emit` `levels` deeper, collecting its lines instead of writing them. */
  private nested(emit: () => State, levels = 1): { lines: string[]; state: State } {
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
  private wrap(open: string, lines: string[], ...parts: (string | string[])[]): void {
    this.line(open);
    this.lines.push(...lines);
    for (const part of parts) {
      if (typeof part === 'string') this.line(part);
      else this.lines.push(...part);
    }
    this.line('}');
  }
}

interface Context {
  ctx: string;
  nullable: boolean;
}

/** An assignment that sets up a block's scope: `name = code`. */
interface Binding {
  name: string;
  code: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function operand(expr: Expr): string {
  return expr.atomic ? expr.code : `(${expr.code})`;
}

function blockName(node: BlockStatement): string {
  return (node.path as PathExpression).parts[0] ?? '';
}

/** `@index` and friends from the innermost `#each`; undefined outside any. */
function frameVariable(name: string, frame: Frame | null): string {
  if (frame === null) return 'undefined';
  const { index, keys, count } = frame;
  switch (name) {
    case 'index':
      return index;
    case 'key':
      return `(${keys} === null ? ${index} : ${keys}[${index}])`;
    case 'first':
      return `(${index} === 0)`;
    case 'last':
      return `(${index} === ${count} - 1)`;
    default:
      throw new Error(`fast path: unexpected data variable @${name}`);
  }
}

function literalValue(node: Literal): unknown {
  return node.type === 'UndefinedLiteral' ? undefined : node.type === 'NullLiteral' ? null : node.value;
}

function literalCode(node: Literal): string {
  const value = literalValue(node);
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Whether a program (or block) holds an `#each`, which needs a loop, so statements. */
function needsStatements(node: Program | BlockStatement | undefined): boolean {
  if (node === undefined) return false;
  if (node.type !== 'Program') {
    return blockName(node) === 'each' || needsStatements(node.program) || needsStatements(node.inverse);
  }
  return outputStatements(node).some((child) => child.type === 'BlockStatement' && needsStatements(child));
}

/** Whether anything in the program reads `../`: only then does the render track Handlebars' `depths`. */
function usesDepths(program: Program | undefined): boolean {
  return outputStatements(program).some((node) => {
    if (node.type === 'MustacheStatement') return isDepthPath(node.path);
    if (node.type !== 'BlockStatement') return false;
    return node.params.some(isDepthPath) || usesDepths(node.program) || usesDepths(node.inverse);
  });
}

function isDepthPath(node: Expression): boolean {
  return node.type === 'PathExpression' && !node.data && node.depth > 0;
}

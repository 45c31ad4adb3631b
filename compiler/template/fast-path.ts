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
import { outputStatements, type BlockStatement, type Program, type Statement } from './ast.js';
import { blockName, needsStatements, usesDepths } from './shape.js';
import type { Helper } from './prelude.js';
import { CodeLines, type State } from './fast-path-lines.js';
import { ValueCode, type Frame, type Scope } from './fast-path-values.js';
import { enterScope, usedBindings, type Context } from './fast-path-scopes.js';

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

/** A piece of output as a JavaScript expression. */
interface Expr {
  code: string;
  /** Certainly a string at run time. */
  str: boolean;
  /** Safe as an operand of `+` without parentheses. */
  atomic: boolean;
}

class RenderCompiler {
  private readonly out: CodeLines;
  private readonly values: ValueCode;

  constructor(
    private readonly ast: Program,
    indent: string,
    section: string,
  ) {
    this.out = new CodeLines(indent);
    this.values = new ValueCode((name) => this.out.use(name), section);
  }

  compile(): RenderBody {
    const root: Scope = { ctx: 'ctx', nullable: false, depths: null, frame: null };
    if (usesDepths(this.ast)) {
      root.depths = this.out.temp('d');
      this.out.line(`${root.depths} = [ctx];`);
    }
    if (!needsStatements(this.ast)) {
      const result = this.programExpr(this.ast, root);
      this.out.line(`return ${result.str ? result.code : `"" + ${operand(result)}`};`);
    } else {
      const out = this.out.temp('o');
      const state = this.emitProgram(this.ast, out, 'uninit', root);
      this.out.line(`return ${state === 'str' ? out : `"" + ${out}`};`);
    }
    return this.out.body();
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
    if (node.type === 'MustacheStatement') return { code: this.values.printed(node, scope), str: false, atomic: true };
    if (node.type === 'BlockStatement') return this.blockExpr(node, scope);
    throw new Error(`fast path: unexpected ${node.type}`);
  }

  /** `#if`, `#unless`, `#with` as a conditional expression. */
  private blockExpr(node: BlockStatement, scope: Scope): Expr {
    let test: string;
    let a: Expr;
    let b: Expr;
    if (blockName(node) === 'with') {
      const value = this.out.temp('w');
      test = `${this.out.use('present')}(${value} = ${this.values.blockParam(node, scope)})`;
      a = this.branchExpr(node.program, scope, { ctx: value, nullable: false });
      b = this.branchExpr(node.inverse, scope, null);
    } else {
      const [then, otherwise] = this.conditional(node);
      test = this.values.condition(node, scope);
      a = this.branchExpr(then, scope, null);
      b = this.branchExpr(otherwise, scope, null);
    }
    return { code: `(${test} ? ${a.code} : ${b.code})`, str: a.str && b.str, atomic: true };
  }

  /** A block's program or inverse, with the context (and depths) it runs in bound first. */
  private branchExpr(program: Program | undefined, scope: Scope, context: Context | null): Expr {
    if (program === undefined || outputStatements(program).length === 0) return { code: '""', str: true, atomic: true };
    const { inner, bindings } = enterScope(this.out, this.values, program, scope, context);
    const body = this.programExpr(program, inner);
    const used = usedBindings(this.out, bindings, body.code);
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
    if (state === 'uninit') this.out.line(`${target} = ${code};`);
    // `t += a + b` adds a + b first; that equals the fold only when a is a string.
    else if (run.length === 1 || first.str) this.out.line(`${target} += ${code};`);
    else this.out.line(`${target} = ${target} + ${code};`);
    return state === 'str' || run.some((p) => p.str) ? 'str' : 'raw';
  }

  /** `#if`, `#unless`, `#with` whose branches hold an `#each`. */
  private emitBlock(node: BlockStatement, target: string, state: State, scope: Scope): State {
    let test: string;
    let then: Program | undefined;
    let otherwise: Program | undefined;
    let context: Context | null = null;
    if (blockName(node) === 'with') {
      const value = this.out.temp('w');
      this.out.line(`${value} = ${this.values.blockParam(node, scope)};`);
      test = `${this.out.use('present')}(${value})`;
      [then, otherwise, context] = [node.program, node.inverse, { ctx: value, nullable: false }];
    } else {
      test = this.values.condition(node, scope);
      [then, otherwise] = this.conditional(node);
    }
    const a = this.out.nested(() => this.emitBranch(then, target, state, scope, context));
    const b = this.out.nested(() => this.emitBranch(otherwise, target, state, scope, null));
    if (b.lines.length === 0) {
      if (a.lines.length > 0) this.out.wrap(`if (${test}) {`, a.lines);
    } else if (a.lines.length === 0) {
      this.out.wrap(`if (!${test}) {`, b.lines);
    } else {
      this.out.wrap(`if (${test}) {`, a.lines, '} else {', b.lines);
    }
    return a.state === 'str' && b.state === 'str' ? 'str' : 'raw';
  }

  /**
   * `#each`, as Handlebars' helper runs it: arrays by index (skipping holes),
   * other iterables in order, other objects by `Object.keys`; each result
   * appended to a string that starts as ""; the inverse when nothing ran.
   */
  private emitEach(node: BlockStatement, target: string, state: State, scope: Scope): State {
    const [list, keys, count, index] = [this.out.temp('x'), this.out.temp('k'), this.out.temp('n'), this.out.temp('i')];
    this.out.line(`${list} = ${this.values.blockParam(node, scope)};`);
    this.out.line(`${keys} = null;`);
    this.out.line(`${count} = 0;`);
    // The loop's string is the target itself unless the target holds a non-string value.
    const out = state === 'raw' ? this.out.temp('o') : target;
    if (state !== 'str') this.out.line(`${out} = "";`);
    const body = node.program;
    this.out.wrap(`if (${list} && typeof ${list} === "object") {`, this.out.nested(() => {
      this.out.line(`if (!${this.out.use('isArray')}(${list})) [${keys}, ${list}] = ${this.out.use('entries')}(${list});`);
      this.out.line(`${count} = ${list}.length;`);
      if (outputStatements(body).length === 0) return 'str';
      const item = this.out.temp('c');
      const frame: Frame = { index, keys, count, parent: scope.frame };
      const loop = this.out.nested(() => {
        this.out.line(`if (!(${index} in ${list})) continue;`);
        this.out.line(`${item} = ${list}[${index}];`);
        return this.emitBranch(body, out, 'str', { ...scope, frame }, { ctx: item, nullable: true });
      });
      this.out.wrap(`for (${index} = 0; ${index} < ${count}; ${index}++) {`, loop.lines);
      return 'str';
    }).lines);
    let loopState: State = 'str';
    if (outputStatements(node.inverse).length > 0) {
      const inverse = this.out.nested(() => this.emitBranch(node.inverse, out, state === 'str' ? 'str' : 'uninit', scope, null));
      this.out.wrap(`if (${count} === 0) {`, inverse.lines);
      loopState = inverse.state;
    }
    if (out === target) return loopState;
    this.out.line(`${target} += ${out};`);
    return loopState;
  }

  /** Appends one branch of a block (its whole result, as one piece) to the fold in `target`. */
  private emitBranch(program: Program | undefined, target: string, state: State, scope: Scope, context: Context | null): State {
    const pieces = outputStatements(program);
    if (program === undefined || pieces.length === 0) {
      if (state === 'uninit') this.out.line(`${target} = "";`);
      else if (state === 'raw') this.out.line(`${target} += "";`);
      return 'str';
    }
    const { inner, bindings } = enterScope(this.out, this.values, program, scope, context);
    const body = this.out.nested(() => this.emitBranchBody(program, pieces, target, state, inner), 0);
    for (const binding of usedBindings(this.out, bindings, body.lines.join('\n'))) this.out.line(`${binding};`);
    this.out.push(body.lines);
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
    const own = this.out.temp('o');
    const ownState = this.emitProgram(program, own, 'uninit', scope);
    this.out.line(`${target} += ${own};`);
    return ownState === 'str' || state === 'str' ? 'str' : 'raw';
  }

  /** `#if`/`#unless`: which program runs when the condition holds. */
  private conditional(node: BlockStatement): [Program | undefined, Program | undefined] {
    return blockName(node) === 'if' ? [node.program, node.inverse] : [node.inverse, node.program];
  }
}

function operand(expr: Expr): string {
  return expr.atomic ? expr.code : `(${expr.code})`;
}


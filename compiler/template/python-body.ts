/**
 * The body of a dynamic section's Python `render(ctx, rt)`, compiled from the
 * same Handlebars AST as the JavaScript fast path (fast-path.ts) and for
 * exactly the templates it accepts (support.ts). It reproduces what that
 * JavaScript computes for JSON values, quirks included:
 *
 * - A program's result is a left fold with JavaScript `+` starting from its
 *   first piece (`{{a}}{{b}}` with 1 and 2 is "3"); a block's result enters
 *   its parent's fold as one value. Until a piece is certainly a string the
 *   fold goes through `ADD` (JavaScript `+`); after that it is concatenation
 *   of `S` (JavaScript string conversion) of each piece.
 * - Lookups see own properties only (`G`), `@root.x` stops at a falsy value
 *   (`GF`), and `../` reads Handlebars' `depths`, pushed with `PUSH` only when
 *   the context changes by JavaScript `!=`.
 * - `#if` tests JavaScript truthiness (`TRUTHY`: an empty list is falsy, an
 *   empty dict is not), `#with` and `includeZero` `PRESENT`; `#each` walks a
 *   list by index and a dict by JavaScript key order (`EACH`).
 * The helper names are locals bound from `rt` (prompt_build/_js.py).
 */
import { outputStatements, type BlockStatement, type PathExpression, type Program, type Statement } from './ast.js';
import { converted, isString, pyString, type Frame, type Scope } from './python-expressions.js';
import { usesDepths } from './shape.js';

export { pyString } from './python-expressions.js';

import { PythonEmitter, type State } from './python-emitter.js';

/** Lines of the function body (indented by `indent`), ending in `return`. */
export function compilePythonBody(ast: Program, indent: string): string[] {
  return new PythonCompiler(indent, usesDepths(ast)).compile(ast);
}

class PythonCompiler extends PythonEmitter {
  constructor(
    indent: string,
    private readonly tracksDepths: boolean,
  ) {
    super(indent);
  }

  compile(ast: Program): string[] {
    const root: Scope = { ctx: 'ctx', nullable: false, depths: null, frame: null };
    if (this.tracksDepths) {
      root.depths = this.temp('d');
      this.line(`${root.depths} = [ctx]`);
    }
    const out = this.temp('o');
    const state = this.program(ast, root, out);
    this.line(`return ${state === 'str' ? out : `S(${out})`}`);
    return this.lines;
  }

  /** Emits statements that leave `program`'s fold value in `target`; returns whether it is certainly a string. */
  private program(program: Program | undefined, scope: Scope, target: string): State {
    const pieces = outputStatements(program);
    // From the first piece that is certainly a string on, the fold is concatenation: those pieces go to a list.
    const first = pieces.findIndex(isString);
    if (first === 1) {
      // One value then a string: `value + "…"` is already concatenation of S(value).
      const list = this.temp('a');
      this.line(`${list} = []`);
      this.sinkPieces(pieces, scope, list);
      this.line(`${target} = "".join(${list})`);
      return 'str';
    }
    if (first === -1) return this.fold(pieces, scope, target);
    const state = first === 0 ? 'str' : this.fold(pieces.slice(0, first), scope, target);
    const list = this.temp('a');
    this.line(first === 0 ? `${list} = []` : `${list} = [${state === 'str' ? target : `S(${target})`}]`);
    this.sinkPieces(pieces.slice(first), scope, list);
    this.line(`${target} = "".join(${list})`);
    return 'str';
  }

  /** The fold of pieces none of which is certainly a string, with JavaScript `+` (`ADD`) between them. */
  private fold(pieces: Statement[], scope: Scope, target: string): State {
    let state: State | 'uninit' = 'uninit';
    let assigned = false;
    let run: string[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      const joined = run.length === 1 ? run[0]! : `"".join((${run.join(', ')}))`;
      this.line(assigned ? `${target} += ${joined}` : `${target} = ${joined}`);
      assigned = true;
      run = [];
    };
    for (const node of pieces) {
      let value: string;
      let valueState: State;
      let isValue = false;
      if (node.type === 'ContentStatement') {
        [value, valueState] = [pyString(node.value), 'str'];
      } else if (node.type === 'MustacheStatement') {
        [value, valueState] = [this.path(node.path as PathExpression, scope), 'raw'];
        isValue = true;
      } else if (node.type === 'BlockStatement') {
        flush();
        value = this.temp('b');
        valueState = this.block(node, scope, value);
      } else {
        throw new Error(`python target: unexpected ${(node as Statement).type}`);
      }
      if (state === 'str') {
        run.push(valueState === 'str' ? value : isValue ? converted('S', value) : `S(${value})`);
      } else if (state === 'uninit') {
        if (valueState === 'str') run.push(value);
        else this.line(`${target} = ${isValue ? converted('P', value) : value}`);
        assigned = valueState !== 'str';
        state = valueState;
      } else if (valueState === 'str') {
        this.line(`${target} = S(${target})`);
        run.push(value);
        state = 'str';
      } else {
        this.line(`${target} = ADD(${target}, ${isValue ? converted('P', value) : value})`);
      }
    }
    flush();
    if (state === 'uninit') {
      this.line(`${target} = ""`);
      return 'str';
    }
    return state;
  }

  private block(node: BlockStatement, scope: Scope, target: string): State {
    const name = (node.path as PathExpression).parts[0];
    const param = this.param(node, scope);
    if (name === 'each') return this.each(node, scope, target, param);
    if (name === 'with') {
      const value = this.temp('w');
      this.line(`${value} = ${param}`);
      return this.branches(`PRESENT(${value})`, node.program, node.inverse, scope, target, { ...scope, ctx: value, nullable: false });
    }
    const test = this.condition(node, scope, param);
    const [then, otherwise] = name === 'if' ? [node.program, node.inverse] : [node.inverse, node.program];
    return this.branches(test, then, otherwise, scope, target, null);
  }

  private branches(test: string, then: Program | undefined, otherwise: Program | undefined, scope: Scope, target: string, context: Scope | null): State {
    this.line(`if ${test}:`);
    const a = this.nested(() => this.branch(then, scope, target, context));
    this.line('else:');
    const b = this.nested(() => this.branch(otherwise, scope, target, null));
    return a === 'str' && b === 'str' ? 'str' : 'raw';
  }

  /** A block's program run on `context`, or (null) on `this`: Handlebars' nullContext when the context is None. */
  private branch(program: Program | undefined, scope: Scope, target: string, context: Scope | null): State {
    if (outputStatements(program).length === 0) {
      this.line(`${target} = ""`);
      return 'str';
    }
    return this.within(scope, context, (inner) => this.program(program, inner, target));
  }

  private each(node: BlockStatement, scope: Scope, target: string, param: string): State {
    const list = this.temp('a');
    this.line(`${list} = []`);
    const count = this.eachHead(node, scope, param, (inner) => this.sinkProgram(node.program, inner, list));
    this.line(`${target} = "".join(${list})`);
    if (outputStatements(node.inverse).length === 0) return 'str';
    this.line(`if ${count} == 0:`);
    return this.nested(() => this.branch(node.inverse, scope, target, null));
  }

  /** The loop of an `#each` over `param`, `body` emitting each item's output; returns the variable holding the item count. */
  private eachHead(node: BlockStatement, scope: Scope, param: string, body: (inner: Scope) => State): string {
    const [keys, items, count, index] = [this.temp('k'), this.temp('x'), this.temp('n'), this.temp('i')];
    this.line(`${keys}, ${items} = (None, v) if type(v := ${param}) is list else EACH(v)`);
    this.line(`${count} = len(${items})`);
    if (outputStatements(node.program).length === 0) return count;
    this.line(`for ${index} in range(${count}):`);
    this.nested(() => {
      const item = this.temp('c');
      this.line(`${item} = ${items}[${index}]`);
      const frame: Frame = { index, keys, count };
      const bindings: string[] = [];
      const inner = this.entered({ ...scope, ctx: item, nullable: true, frame }, scope, bindings);
      for (const binding of bindings) this.line(binding);
      return body(inner);
    });
    return count;
  }

  // ── pieces appended to a list: the fold is a string already, so each piece only needs S ──

  private sinkPieces(pieces: Statement[], scope: Scope, list: string): void {
    let run: string[] = [];
    const flush = (): void => {
      if (run.length === 1) this.line(`${list}.append(${run[0]})`);
      else if (run.length > 1) this.line(`${list} += (${run.join(', ')})`);
      run = [];
    };
    for (const node of pieces) {
      if (node.type === 'ContentStatement') run.push(pyString(node.value));
      else if (node.type === 'MustacheStatement') run.push(converted('S', this.path(node.path as PathExpression, scope)));
      else if (node.type === 'BlockStatement') {
        flush();
        this.sinkBlock(node, scope, list);
      } else throw new Error(`python target: unexpected ${node.type}`);
    }
    flush();
  }

  /** Appends S(program's value): its pieces one by one when that is the same (one piece, or a string first or second), else its value. */
  private sinkProgram(program: Program | undefined, scope: Scope, list: string): State {
    const pieces = outputStatements(program);
    if (pieces.length <= 1 || isString(pieces[0]!) || isString(pieces[1]!)) {
      this.sinkPieces(pieces, scope, list);
    } else {
      const value = this.temp('b');
      const state = this.program(program, scope, value);
      this.line(`${list}.append(${state === 'str' ? value : `S(${value})`})`);
    }
    return 'str';
  }

  private sinkBlock(node: BlockStatement, scope: Scope, list: string): void {
    const name = (node.path as PathExpression).parts[0];
    const param = this.param(node, scope);
    let test: string;
    let then: Program | undefined;
    let otherwise: Program | undefined;
    let context: Scope | null = null;
    if (name === 'each') {
      const count = this.eachHead(node, scope, param, (inner) => this.sinkProgram(node.program, inner, list));
      if (outputStatements(node.inverse).length === 0) return;
      this.line(`if ${count} == 0:`);
      this.nested(() => this.within(scope, null, (inner) => this.sinkProgram(node.inverse, inner, list)));
      return;
    }
    if (name === 'with') {
      const value = this.temp('w');
      this.line(`${value} = ${param}`);
      [test, then, otherwise, context] = [`PRESENT(${value})`, node.program, node.inverse, { ...scope, ctx: value, nullable: false }];
    } else {
      test = this.condition(node, scope, param);
      [then, otherwise] = name === 'if' ? [node.program, node.inverse] : [node.inverse, node.program];
    }
    const [a, b] = [outputStatements(then).length > 0, outputStatements(otherwise).length > 0];
    if (!a && !b) return;
    this.line(a ? `if ${test}:` : `if not ${test}:`);
    if (a) this.nested(() => this.within(scope, context, (inner) => this.sinkProgram(then, inner, list)));
    if (!b) return;
    if (a) this.line('else:');
    this.nested(() => this.within(scope, null, (inner) => this.sinkProgram(otherwise, inner, list)));
  }
}

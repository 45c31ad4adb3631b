/**
 * The string path of a section's Python `render`: a first attempt that
 * assumes what prompt contexts almost always hold — every printed value a
 * string, every container a printed path walks through a dict. Then the
 * JavaScript fold that python-body.ts reproduces is plain concatenation in
 * document order, so the attempt appends the raw values to one list and
 * joins it: `str.join` checks in C that each piece is a string, and a
 * subscript of anything but a dict raises. Any exception means an assumption
 * failed, and the exact body runs instead; the output never depends on which
 * path ran.
 *
 * Block tests and what an `#each` walks are no assumptions: they are computed
 * as in the exact body (the same lookups, truthiness and `EACH`, a block over
 * a null item running on Handlebars' empty object). Where the fold is
 * concatenation whatever the values (`concatenates`), a value that is no
 * string is converted in place instead of falling back. Templates using what
 * the attempt does not model — `#with`, `../`, `@root`, `@key`, printed data
 * variables, literal or `includeZero` parameters — get none.
 */
import { outputStatements, type BlockStatement, type Expression, type PathExpression, type Program } from './ast.js';
import { blockName } from './shape.js';
import { isString, pyString, type Frame, type Scope } from './python-expressions.js';
import { PythonEmitter, type State } from './python-emitter.js';

/** Lines of the attempt (indented by `indent`), ending in `return`, or null when the template is outside its reach. */
export function compilePythonStringPath(ast: Program, indent: string): string[] | null {
  return withinReach(ast) ? new StringPathCompiler(indent).compile(ast) : null;
}

const DATA_TESTS: ReadonlySet<string> = new Set(['index', 'first', 'last']);

function withinReach(program: Program | undefined): boolean {
  return outputStatements(program).every((node) => {
    if (node.type === 'ContentStatement') return true;
    if (node.type === 'MustacheStatement') return isPlainPath(node.path);
    if (node.type !== 'BlockStatement') return false;
    const name = blockName(node);
    const [param] = node.params;
    if (name !== 'if' && name !== 'unless' && name !== 'each') return false;
    if (param === undefined || (node.hash?.pairs.length ?? 0) > 0) return false;
    const testable = isPlainPath(param) || (name !== 'each' && isDataTest(param));
    return testable && withinReach(node.program) && withinReach(node.inverse);
  });
}

function isPlainPath(node: Expression): node is PathExpression {
  return node.type === 'PathExpression' && !node.data && node.depth === 0;
}

function isDataTest(node: Expression): boolean {
  return node.type === 'PathExpression' && node.data && node.depth === 0 && node.parts.length === 1 && DATA_TESTS.has(node.parts[0]!);
}

/**
 * Printed paths subscript the scope's context: the root is a dict, and an
 * `#each` item (or the nullContext standing for it in a block) is checked to
 * be one by its loop when the body subscripts it.
 */
interface StringScope extends Scope {
  /** The innermost loop's item, null at the root. */
  item: { subscripted: boolean } | null;
}

class StringPathCompiler extends PythonEmitter {
  compile(ast: Program): string[] {
    const out = this.temp('fa');
    this.line(`${out} = []`);
    this.pieces(ast, { ctx: 'ctx', nullable: false, depths: null, frame: null, item: null }, out);
    if (!concatenates(ast)) {
      this.line(`return "".join(${out})`);
      return this.lines;
    }
    // Values that are no strings (a number, null…) print as JavaScript's `"" + value`, which is `S`.
    this.line('try:');
    this.nested(() => (this.line(`return "".join(${out})`), 'str'));
    this.line('except TypeError:');
    this.nested(() => (this.line(`return "".join([p if type(p) is str else S(p) for p in ${out}])`), 'str'));
    return this.lines;
  }

  private pieces(program: Program | undefined, scope: StringScope, out: string): void {
    let run: string[] = [];
    const flush = (): void => {
      if (run.length === 1) this.line(`${out}.append(${run[0]})`);
      else if (run.length > 1) this.line(`${out} += (${run.join(', ')})`);
      run = [];
    };
    for (const node of outputStatements(program)) {
      if (node.type === 'ContentStatement') run.push(pyString(node.value));
      else if (node.type === 'MustacheStatement') run.push(this.value(node.path as PathExpression, scope));
      else if (node.type === 'BlockStatement') {
        flush();
        this.block(node, scope, out);
      }
    }
    flush();
  }

  /** A printed path, raw: the root and checked items by subscript, anything deeper through a dict test that makes the subscript fail. */
  private value(path: PathExpression, scope: StringScope): string {
    if (path.parts.length > 0 && scope.item !== null) scope.item.subscripted = true;
    return path.parts.reduce(
      (code, part, i) => (i === 0 ? `${code}[${pyString(part)}]` : `(t if type(t := ${code}) is dict else None)[${pyString(part)}]`),
      scope.ctx,
    );
  }

  private block(node: BlockStatement, scope: StringScope, out: string): void {
    if (blockName(node) === 'each') return this.each(node, scope, out);
    const test = this.condition(node, scope, this.param(node, scope));
    const [then, otherwise] = blockName(node) === 'if' ? [node.program, node.inverse] : [node.inverse, node.program];
    const [a, b] = [outputStatements(then).length > 0, outputStatements(otherwise).length > 0];
    if (!a && !b) return;
    this.line(a ? `if ${test}:` : `if not ${test}:`);
    if (a) this.nested(() => this.branch(then, scope, out));
    if (!b) return;
    if (a) this.line('else:');
    this.nested(() => this.branch(otherwise, scope, out));
  }

  private each(node: BlockStatement, scope: StringScope, out: string): void {
    const items = this.temp('fx');
    // As the exact body walks it (a dict's values…), with the commonest nothing-to-walk cases inline.
    this.line(`${items} = v if type(v := ${this.param(node, scope)}) is list else () if type(v) is str or v is U or v is None else EACH(v)[1]`);
    if (outputStatements(node.program).length > 0) {
      const item = this.temp('fc');
      const frame = usesFrame(node.program) ? { index: this.temp('fi'), keys: 'None', count: this.temp('fn') } : null;
      // With a frame, len() and range() only when there is something to walk: they cost more
      // than the test, nothing to walk is common, and a test on a line of its own would be
      // one more indentation level (codegen-python.ts counts them).
      this.line(frame === null ? `for ${item} in ${items}:` : `for ${frame.index} in range(${frame.count} := len(${items})) if ${items} else ():`);
      this.nested(() => this.loopBody(node.program, { ...scope, ctx: item, nullable: true, frame, item: { subscripted: false } }, items, out));
    }
    if (outputStatements(node.inverse).length === 0) return;
    this.line(`if not ${items}:`);
    this.nested(() => this.branch(node.inverse, scope, out));
  }

  /** A block's program run on `this`: Handlebars' nullContext for a null `#each` item, bound as the exact body binds it. */
  private branch(program: Program | undefined, scope: StringScope, out: string): State {
    return this.within(scope, null, (inner) => (this.pieces(program, inner as StringScope, out), 'str'));
  }

  private loopBody(program: Program | undefined, inner: StringScope, items: string, out: string): State {
    const start = this.lines.length;
    this.pieces(program, inner, out);
    const head = inner.frame === null ? [] : [`${inner.ctx} = ${items}[${(inner.frame as Frame).index}]`];
    if (inner.item!.subscripted) head.push(`if type(${inner.ctx}) is not dict:`, '    raise TypeError');
    const pad = this.indent + '    '.repeat(this.depth);
    this.lines.splice(start, 0, ...head.map((line) => pad + line));
    return 'str';
  }
}

/** Whether a loop body tests `@index`, `@first` or `@last` of its own loop (a nested loop's body has its own; its inverse does not). */
function usesFrame(program: Program | undefined): boolean {
  return outputStatements(program).some((node) => {
    if (node.type !== 'BlockStatement') return false;
    if (blockName(node) === 'each') return usesFrame(node.inverse);
    return isDataTest(node.params[0]!) || usesFrame(node.program) || usesFrame(node.inverse);
  });
}

/**
 * Whether the JavaScript fold of every program is concatenation of each
 * piece's string conversion, whatever the values: a program of one piece, or
 * one whose first or second piece is certainly a string (the fold's `+` is
 * then concatenation from the start). Then a value that is no string can be
 * converted where it stands; otherwise `1 + 2` may be 3, and only the exact
 * body knows.
 */
function concatenates(program: Program | undefined): boolean {
  const pieces = outputStatements(program);
  if (pieces.length > 1 && !isString(pieces[0]!) && !isString(pieces[1]!)) return false;
  return pieces.every((node) => node.type !== 'BlockStatement' || (concatenates(node.program) && concatenates(node.inverse)));
}

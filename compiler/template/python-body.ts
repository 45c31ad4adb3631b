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
import { outputStatements, type BlockStatement, type Expression, type Literal, type PathExpression, type Program, type Statement } from './ast.js';

type State = 'str' | 'raw';

interface Frame {
  index: string;
  keys: string;
  count: string;
}

interface Scope {
  /** Python variable holding the current context; `ctx` at the top is the root dict. */
  ctx: string;
  /** The context may be None (an `#each` item): blocks then run on Handlebars' nullContext. */
  nullable: boolean;
  depths: string | null;
  frame: Frame | null;
}

/** Lines of the function body (indented by `indent`), ending in `return`. */
export function compilePythonBody(ast: Program, indent: string): string[] {
  return new PythonCompiler(indent, usesDepths(ast)).compile(ast);
}

class PythonCompiler {
  private lines: string[] = [];
  private depth = 0;
  private counter = 0;

  constructor(
    private readonly indent: string,
    private readonly tracksDepths: boolean,
  ) {}

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

  /** `#if`/`#unless`'s test of `param`. */
  private condition(node: BlockStatement, scope: Scope, param: string): string {
    if (isBoolean(node.params[0], scope)) return param;
    const includeZero = node.hash?.pairs.some((pair) => pair.key === 'includeZero' && Boolean(literalValue(pair.value as Literal))) ?? false;
    // A string's truthiness inline: most tested values are strings (or missing).
    return includeZero ? `PRESENT(${param})` : `(v != "" if type(v := ${param}) is str else TRUTHY(v))`;
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

  /** Runs `emit` in the scope a block's program gets, writing the bindings (nullContext, depths) it reads first. */
  private within(scope: Scope, context: Scope | null, emit: (inner: Scope) => State): State {
    let inner: Scope = context ?? scope;
    const bindings: string[] = [];
    if (context === null && scope.nullable) {
      const self = this.temp('c');
      bindings.push(`${self} = NC if ${scope.ctx} is None or ${scope.ctx} is U else ${scope.ctx}`);
      inner = { ...scope, ctx: self, nullable: false };
    }
    inner = this.entered(inner, scope, bindings);
    const start = this.lines.length;
    const state = emit(inner);
    this.lines.splice(start, 0, ...this.usedBindings(bindings, this.lines.slice(start).join('\n')));
    return state;
  }

  /** `depths` for a program whose context may have changed (Handlebars' wrapProgram): its binding joins `bindings`. */
  private entered(inner: Scope, outer: Scope, bindings: string[]): Scope {
    if (outer.depths === null) return inner;
    const depths = this.temp('d');
    bindings.push(`${depths} = PUSH(${inner.ctx}, ${outer.depths})`);
    return { ...inner, depths };
  }

  /** The bindings the code reads (directly or through a later binding), as indented lines; the others are dropped. */
  private usedBindings(bindings: string[], code: string): string[] {
    const used: string[] = [];
    let reads = code;
    for (const binding of [...bindings].reverse()) {
      const name = binding.slice(0, binding.indexOf(' '));
      if (!new RegExp(`\\b${name}\\b`).test(reads)) continue;
      used.unshift(binding);
      reads += `\n${binding}`;
    }
    return used.map((binding) => this.indent + '    '.repeat(this.depth) + binding);
  }

  /** Handlebars' `each`: a list by index, a dict by key; the inverse's value when nothing ran. */
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

  private param(node: BlockStatement, scope: Scope): string {
    const [param] = node.params;
    if (param === undefined) throw new Error('python target: block without parameter');
    return this.expression(param, scope);
  }

  private expression(node: Expression, scope: Scope): string {
    if (node.type === 'PathExpression') return this.path(node, scope);
    if (node.type === 'SubExpression') throw new Error('python target: unexpected sub-expression');
    return literalCode(node);
  }

  /** A path's JavaScript value as a Python expression. */
  private path(path: PathExpression, scope: Scope): string {
    if (path.data) {
      const [head = '', ...rest] = path.parts;
      const base = head === 'root' ? 'ctx' : frameVariable(head, scope.frame);
      return rest.reduce((code, part) => `GF(${code}, ${pyString(part)})`, base);
    }
    const base = path.depth === 0 ? scope.ctx : `DEPTH(${scope.depths ?? '[]'}, ${path.depth})`;
    return path.parts.reduce((code, part) => lookup(code, part), base);
  }

  private temp(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  private line(text: string): void {
    this.lines.push(this.indent + '    '.repeat(this.depth) + text);
  }

  private nested(emit: () => State): State {
    this.depth++;
    const before = this.lines.length;
    try {
      const state = emit();
      if (this.lines.length === before) this.line('pass');
      return state;
    } finally {
      this.depth--;
    }
  }
}

/**
 * `parent`'s own property `key`: a dict's key read inline (the common case,
 * without a call), anything else through `G`. The root context is a dict
 * (render makes sure). `t` is a scratch variable, read right after it is set.
 */
function lookup(parent: string, key: string): string {
  const quoted = pyString(key);
  if (parent === 'ctx') return `ctx.get(${quoted}, U)`;
  if (/^[a-z]+\d+$/.test(parent)) return `(${parent}.get(${quoted}, U) if type(${parent}) is dict else G(${parent}, ${quoted}))`;
  return `(t.get(${quoted}, U) if type(t := ${parent}) is dict else G(t, ${quoted}))`;
}

/** `convert` (S or P) of a printed value, with the string case inline. `v` is a scratch variable like `t`. */
function converted(convert: 'S' | 'P', value: string): string {
  return `(v if type(v := ${value}) is str else ${convert}(v))`;
}

/**
 * Whether a piece's value is certainly a string, whatever the context: text,
 * a block whose every outcome is (an `#each` is "" plus its items unless its
 * inverse runs). Mirrors the fold's states above.
 */
function isString(node: Statement): boolean {
  if (node.type === 'ContentStatement') return true;
  if (node.type !== 'BlockStatement') return false;
  const inverseIsString = outputStatements(node.inverse).length === 0 || outputStatements(node.inverse).some(isString);
  if ((node.path as PathExpression).parts[0] === 'each') return inverseIsString;
  return inverseIsString && (outputStatements(node.program).length === 0 || outputStatements(node.program).some(isString));
}

/** `@first` and `@last` inside an `#each` are Python booleans already. */
function isBoolean(node: Expression | undefined, scope: Scope): boolean {
  return node?.type === 'PathExpression' && node.data && node.parts.length === 1 && (node.parts[0] === 'first' || node.parts[0] === 'last') && scope.frame !== null;
}

/** `@index` and friends of the innermost `#each`; undefined (`U`) outside any. */
function frameVariable(name: string, frame: Frame | null): string {
  if (frame === null) return 'U';
  switch (name) {
    case 'index':
      return frame.index;
    case 'key':
      return `(${frame.index} if ${frame.keys} is None else ${frame.keys}[${frame.index}])`;
    case 'first':
      return `(${frame.index} == 0)`;
    case 'last':
      return `(${frame.index} == ${frame.count} - 1)`;
    default:
      throw new Error(`python target: unexpected data variable @${name}`);
  }
}

function literalValue(node: Literal): unknown {
  return node.type === 'UndefinedLiteral' ? undefined : node.type === 'NullLiteral' ? null : node.value;
}

function literalCode(node: Literal): string {
  const value = literalValue(node);
  if (value === undefined) return 'U';
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return pyString(value);
  const number = Number(value);
  if (Number.isNaN(number)) return 'float("nan")';
  if (!Number.isFinite(number)) return number > 0 ? 'float("inf")' : 'float("-inf")';
  // A JavaScript number is a double: a float literal, so big integers round as in JavaScript.
  return Number.isInteger(number) && Math.abs(number) < 2 ** 53 ? String(number) : `float(${JSON.stringify(String(number))})`;
}

/**
 * A Python string literal: JSON's escapes are Python's too; the line
 * separators Python's `splitlines` (and editors) would break on are escaped
 * as well, so one literal is always one source line.
 */
export function pyString(text: string): string {
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029\u000b\u000c\u001c-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether anything reads `../`: only then does the render track Handlebars' `depths`. */
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

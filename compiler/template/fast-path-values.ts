/**
 * The fast path's values (see fast-path.ts): paths looked up as Handlebars
 * looks them up, block parameters, `#if` tests and printed mustaches, each
 * as a JavaScript expression.
 */
import { isSimpleId, type BlockStatement, type Expression, type Literal, type MustacheStatement, type PathExpression } from './ast.js';
import type { Helper } from './prelude.js';
import { literalValue } from './shape.js';

/** One `#each` iteration: the variables holding its data (`@index`, `@key`, `@first`, `@last`). */
export interface Frame {
  index: string;
  keys: string;
  count: string;
  parent: Frame | null;
}

export interface Scope {
  /** Variable holding the current context (Handlebars' `depth0`). */
  ctx: string;
  /** The context may be null or undefined (an `#each` item). */
  nullable: boolean;
  /** Variable holding Handlebars' `depths` array, where a `../` below needs it. */
  depths: string | null;
  frame: Frame | null;
}

/** What a value can be: only a `value` may be a function that needs calling; a `boolean` needs no truthiness test. */
export type ValueKind = 'value' | 'literal' | 'data' | 'boolean';

export interface Value {
  code: string;
  kind: ValueKind;
}

/** Writes value expressions; `use` marks a helper or scratch variable as needed by the generated code. */
export class ValueCode {
  constructor(
    private readonly use: (name: Helper | 'v' | 't') => string,
    private readonly section: string,
  ) {}

  /** Handlebars' `this` for helper calls: the context, or `nullContext` when it is null. */
  self(scope: Scope): string {
    return scope.nullable ? `(${scope.ctx} ?? ${this.use('NC')})` : scope.ctx;
  }

  /** Handlebars' `#if` test: falsy or an empty array fails; 0 passes with `includeZero`. */
  condition(node: BlockStatement, scope: Scope): string {
    const value = this.param(node, scope);
    if (value.kind === 'boolean') return value.code;
    const includeZero = node.hash?.pairs.some((pair) => pair.key === 'includeZero' && literalValue(pair.value as Literal));
    return `${this.use(includeZero ? 'present' : 'truthy')}(${this.resolve(value, scope)})`;
  }

  /** The block's parameter, called first if it is a function (as the built-in helpers do). */
  blockParam(node: BlockStatement, scope: Scope): string {
    return this.resolve(this.param(node, scope), scope);
  }

  param(node: BlockStatement, scope: Scope): Value {
    const [param] = node.params;
    if (param === undefined) throw new Error('fast path: block without parameter');
    return this.expression(param, scope);
  }

  resolve(value: Value, scope: Scope): string {
    return value.kind === 'value' ? `${this.use('fv')}(${value.code}, ${this.self(scope)})` : value.code;
  }

  private expression(node: Expression, scope: Scope): Value {
    if (node.type === 'PathExpression') return this.path(node, scope);
    if (node.type === 'SubExpression') throw new Error('fast path: unexpected sub-expression');
    return { code: literalCode(node), kind: 'literal' };
  }

  /** A path's value, looked up as Handlebars does (`!= null` between segments; `&&` for data paths). */
  path(path: PathExpression, scope: Scope): Value {
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
  printed(node: MustacheStatement, scope: Scope): string {
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
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `@index` and friends from the innermost `#each`; undefined outside any. */
export function frameVariable(name: string, frame: Frame | null): string {
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


export function literalCode(node: Literal): string {
  const value = literalValue(node);
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}


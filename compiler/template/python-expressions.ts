/**
 * The expressions of the generated Python (python-body.ts): scopes, lookups,
 * printed values, data variables, literals, and what is known about a piece's
 * value before the render runs.
 */
import { literalValue } from './shape.js';
import { outputStatements, type Expression, type Literal, type PathExpression, type Statement } from './ast.js';

export interface Frame {
  index: string;
  keys: string;
  count: string;
}

export interface Scope {
  /** Python variable holding the current context; `ctx` at the top is the root dict. */
  ctx: string;
  /** The context may be None (an `#each` item): blocks then run on Handlebars' nullContext. */
  nullable: boolean;
  depths: string | null;
  frame: Frame | null;
}

/**
 * `parent`'s own property `key`: a dict's key read inline (the common case,
 * without a call), anything else through `G`. The root context is a dict
 * (render makes sure). `t` is a scratch variable, read right after it is set.
 */
export function lookup(parent: string, key: string): string {
  const quoted = pyString(key);
  if (parent === 'ctx') return `ctx.get(${quoted}, U)`;
  if (/^[a-z]+\d+$/.test(parent)) return `(${parent}.get(${quoted}, U) if type(${parent}) is dict else G(${parent}, ${quoted}))`;
  return `(t.get(${quoted}, U) if type(t := ${parent}) is dict else G(t, ${quoted}))`;
}

/** `convert` (S or P) of a printed value, with the string case inline. `v` is a scratch variable like `t`. */
export function converted(convert: 'S' | 'P', value: string): string {
  return `(v if type(v := ${value}) is str else ${convert}(v))`;
}

/**
 * Whether a piece's value is certainly a string, whatever the context: text,
 * a block whose every outcome is (an `#each` is "" plus its items unless its
 * inverse runs). Mirrors the fold's states above.
 */
export function isString(node: Statement): boolean {
  if (node.type === 'ContentStatement') return true;
  if (node.type !== 'BlockStatement') return false;
  const inverseIsString = outputStatements(node.inverse).length === 0 || outputStatements(node.inverse).some(isString);
  if ((node.path as PathExpression).parts[0] === 'each') return inverseIsString;
  return inverseIsString && (outputStatements(node.program).length === 0 || outputStatements(node.program).some(isString));
}

/** `@first` and `@last` inside an `#each` are Python booleans already. */
export function isBoolean(node: Expression | undefined, scope: Scope): boolean {
  return node?.type === 'PathExpression' && node.data && node.parts.length === 1 && (node.parts[0] === 'first' || node.parts[0] === 'last') && scope.frame !== null;
}

/** `@index` and friends of the innermost `#each`; undefined (`U`) outside any. */
export function frameVariable(name: string, frame: Frame | null): string {
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


export function literalCode(node: Literal): string {
  const value = literalValue(node);
  if (value === undefined) return 'U';
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return pyString(value);
  return pyNumber(Number(value));
}

/** A JavaScript number as a Python literal of the same double. */
export function pyNumber(number: number): string {
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


/**
 * What the Python body compiler (python-body.ts) writes with: indented
 * lines, fresh variable names, nested blocks, the scope a block's program
 * runs in (Handlebars' nullContext and `depths`), and the expressions of
 * block parameters and paths.
 */
import type { BlockStatement, Expression, Literal, PathExpression } from './ast.js';
import { frameVariable, isBoolean, literalCode, lookup, pyString, type Scope } from './python-expressions.js';
import { literalValue } from './shape.js';

export type State = 'str' | 'raw';

export class PythonEmitter {
  protected lines: string[] = [];
  protected depth = 0;
  private counter = 0;

  constructor(protected readonly indent: string) {}

  /** `#if`/`#unless`'s test of `param`. */
  protected condition(node: BlockStatement, scope: Scope, param: string): string {
    if (isBoolean(node.params[0], scope)) return param;
    const includeZero = node.hash?.pairs.some((pair) => pair.key === 'includeZero' && Boolean(literalValue(pair.value as Literal))) ?? false;
    // A string's truthiness inline: most tested values are strings (or missing).
    return includeZero ? `PRESENT(${param})` : `(v != "" if type(v := ${param}) is str else TRUTHY(v))`;
  }

  /** Runs `emit` in the scope a block's program gets, writing the bindings (nullContext, depths) it reads first. */
  protected within(scope: Scope, context: Scope | null, emit: (inner: Scope) => State): State {
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
  protected entered(inner: Scope, outer: Scope, bindings: string[]): Scope {
    if (outer.depths === null) return inner;
    const depths = this.temp('d');
    bindings.push(`${depths} = PUSH(${inner.ctx}, ${outer.depths})`);
    return { ...inner, depths };
  }

  /** The bindings the code reads (directly or through a later binding), as indented lines; the others are dropped. */
  protected usedBindings(bindings: string[], code: string): string[] {
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
  protected param(node: BlockStatement, scope: Scope): string {
    const [param] = node.params;
    if (param === undefined) throw new Error('python target: block without parameter');
    return this.expression(param, scope);
  }

  protected expression(node: Expression, scope: Scope): string {
    if (node.type === 'PathExpression') return this.path(node, scope);
    if (node.type === 'SubExpression') throw new Error('python target: unexpected sub-expression');
    return literalCode(node);
  }

  /** A path's JavaScript value as a Python expression. */
  protected path(path: PathExpression, scope: Scope): string {
    if (path.data) {
      const [head = '', ...rest] = path.parts;
      const base = head === 'root' ? 'ctx' : frameVariable(head, scope.frame);
      return rest.reduce((code, part) => `GF(${code}, ${pyString(part)})`, base);
    }
    const base = path.depth === 0 ? scope.ctx : `DEPTH(${scope.depths ?? '[]'}, ${path.depth})`;
    return path.parts.reduce((code, part) => lookup(code, part), base);
  }

  protected temp(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  protected line(text: string): void {
    this.lines.push(this.indent + '    '.repeat(this.depth) + text);
  }

  protected nested(emit: () => State): State {
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

/**
 * The scope a block's program runs in, for the fast path (fast-path.ts):
 * Handlebars runs `#if`/`#unless` branches and inverses on `this`, which is
 * `nullContext` for a null context, and pushes a new context onto `depths`
 * unless it equals (`!=`) the current one. The assignments that set a scope
 * up are kept only where the code reads them.
 */
import type { Program } from './ast.js';
import type { CodeLines } from './fast-path-lines.js';
import type { Scope, ValueCode } from './fast-path-values.js';
import { usesDepths } from './shape.js';

/** The context a block's program runs on when it is not `this` (an `#each` item, a `#with` value). */
export interface Context {
  ctx: string;
  nullable: boolean;
}

/** An assignment that sets up a block's scope: `name = code`. */
export interface Binding {
  name: string;
  code: string;
}

/** The scope `program` runs in (on `context`, or on `this` when null), and the assignments that set it up. */
export function enterScope(out: CodeLines, values: ValueCode, program: Program, scope: Scope, context: Context | null): { inner: Scope; bindings: Binding[] } {
  const bindings: Binding[] = [];
  let { ctx, nullable } = scope;
  if (context !== null) {
    ({ ctx, nullable } = context);
  } else if (nullable) {
    const self = out.temp('c');
    bindings.push({ name: self, code: values.self(scope) });
    [ctx, nullable] = [self, false];
  }
  let depths: string | null = null;
  if (scope.depths !== null && usesDepths(program)) {
    depths = out.temp('d');
    bindings.push({ name: depths, code: `${out.use('push')}(${ctx}, ${scope.depths})` });
  }
  return { inner: { ctx, nullable, depths, frame: scope.frame }, bindings };
}

/** The assignments `code` needs (directly or through a later binding); the others' variables are dropped. */
export function usedBindings(out: CodeLines, bindings: readonly Binding[], code: string): string[] {
  const used: string[] = [];
  let reads = code;
  for (const { name, code: value } of [...bindings].reverse()) {
    if (new RegExp(`\\b${name}\\b`).test(reads)) {
      used.unshift(`${name} = ${value}`);
      reads += `\n${value}`;
    } else {
      out.dropTemp(name);
    }
  }
  return used;
}

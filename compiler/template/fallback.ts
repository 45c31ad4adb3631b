/**
 * The Handlebars runtime path: a template precompiled by Handlebars itself,
 * with one change to the code it generates. Every value appended to the
 * output first passes `rt.text` (as on the fast path), so a value that cannot
 * become text throws a RenderError naming it, not a bare TypeError from
 * inside Handlebars' buffer. The generated spec is inlined in the thunk
 * module, inside `create(rt)`, which is where `rt` comes from.
 */
import Handlebars from 'handlebars';
import type { Expression, Program, Statement } from './ast.js';

/** The spec source for `rt.handlebars.template(…)`; `section` is named in the errors. */
export function precompileChecked(source: string, ast: Program, section: string): string {
  const env = Handlebars.create() as unknown as CompilerEnvironment;
  env.JavaScriptCompiler = checkedCompiler(env.JavaScriptCompiler, appendedNames(ast), JSON.stringify(section));
  return env.precompile(source, { noEscape: true, strict: false });
}

/** The parts of Handlebars' compiler API used here (its typings declare none of them). */
interface CompilerEnvironment {
  JavaScriptCompiler: JavaScriptCompilerClass;
  precompile(source: string, options: object): string;
}

type Chunk = unknown;

interface JavaScriptCompiler {
  source: { currentLocation?: { start: { line: number; column: number } } };
  environment: { isSimple: boolean };
  isInline(): boolean;
  replaceStack(callback: (current: Chunk) => Chunk[]): void;
  popStack(): Chunk;
  pushSource(source: Chunk): void;
  appendToBuffer(source: Chunk, location?: unknown, explicit?: boolean): Chunk;
}

type JavaScriptCompilerClass = new () => JavaScriptCompiler;

/**
 * A JavaScriptCompiler whose `append` opcode (a value into the buffer)
 * checks the value inside Handlebars' own `!= null` test, so null and
 * undefined still print nothing. The body is Handlebars 4.7's `append` with
 * that one call added. Child programs (block bodies) use the same class.
 */
function checkedCompiler(Base: JavaScriptCompilerClass, names: ReadonlyMap<string, string>, section: string): JavaScriptCompilerClass {
  class Checked extends Base {
    append(): void {
      const at = this.source.currentLocation?.start;
      const key = at === undefined ? '' : `${at.line}:${at.column}`;
      const name = names.get(key) ?? (at === undefined ? 'a value' : `the expression at ${at.line}:${at.column + 1}`);
      const check = (value: Chunk): Chunk[] => ['rt.text(', value, ', ', section, ', ', JSON.stringify(name), ')'];
      if (this.isInline()) {
        this.replaceStack((current) => [' != null ? ', ...check(current), ' : ""']);
        this.pushSource(this.appendToBuffer(this.popStack()));
      } else {
        const local = this.popStack();
        this.pushSource(['if (', local, ' != null) { ', this.appendToBuffer(check(local), undefined, true), ' }']);
        if (this.environment.isSimple) this.pushSource(['else { ', this.appendToBuffer("''", undefined, true), ' }']);
      }
    }
  }
  (Checked.prototype as unknown as { compiler: JavaScriptCompilerClass }).compiler = Checked;
  return Checked;
}

/**
 * What each `append` prints, by the start of the statement that emits it
 * (Handlebars tags an opcode with its statement's location): a mustache's
 * expression as written, or a block's opening.
 */
function appendedNames(ast: Program): Map<string, string> {
  const names = new Map<string, string>();
  const visit = (program: Program | undefined): void => {
    for (const node of program?.body ?? []) statement(node);
  };
  const statement = (node: Statement): void => {
    if (node.type === 'MustacheStatement') names.set(key(node.loc.start), call(node.path, node.params));
    if (node.type === 'BlockStatement') {
      names.set(key(node.loc.start), `#${call(node.path, node.params)}`);
      visit(node.program);
      visit(node.inverse);
    }
  };
  visit(ast);
  return names;
}

function key(at: { line: number; column: number }): string {
  return `${at.line}:${at.column}`;
}

function call(path: Expression, params: Expression[]): string {
  return [path, ...params].map(text).join(' ');
}

function text(node: Expression): string {
  if (node.type === 'PathExpression') return node.original;
  if (node.type === 'SubExpression') return `(${call(node.path, node.params)})`;
  return typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.original ?? node.value);
}

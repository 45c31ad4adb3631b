/**
 * The constructs a bundle's templates cannot render, found at build time
 * rather than as a crash in `render`: a thunk only ever gets the Handlebars
 * runtime's built-in helpers, no partials and no decorators, and a built-in
 * helper given the wrong form or number of arguments throws when it runs.
 * Calls are classified exactly as Handlebars' compiler classifies them, so
 * every name it would call as a helper is checked, and nothing else.
 */
import { hasArguments, isSimpleId, KNOWN_HELPERS, type Expression, type Hash, type Literal, type PathExpression, type Program, type Statement } from './ast.js';

export type TemplateRule =
  | 'template/unknown-helper'
  | 'template/helper-form'
  | 'template/helper-arity'
  | 'template/partial'
  | 'template/decorator';

/** 1-based position of the offending `{{…}}` or `(…)` in the template source. */
export interface TemplateProblem {
  rule: TemplateRule;
  message: string;
  line: number;
  column: number;
  note?: string;
}

/** How a helper is called: `{{#name …}}…{{/name}}`, or `{{name …}}` / `(name …)`. */
type Form = 'block' | 'inline';

interface HelperSpec {
  form: Form;
  /** Exactly this many positional arguments; `null`: any number. */
  params: number | null;
}

/**
 * The helpers `handlebars/runtime` registers and the thunks can call, with the
 * calls they survive. `helperMissing` and `blockHelperMissing` are registered
 * too, but as internal hooks: called by name they throw.
 */
export const RUNTIME_HELPERS: ReadonlyMap<string, HelperSpec> = new Map([
  ['if', { form: 'block', params: 1 }],
  ['unless', { form: 'block', params: 1 }],
  ['each', { form: 'block', params: 1 }],
  ['with', { form: 'block', params: 1 }],
  ['lookup', { form: 'inline', params: 2 }],
  ['log', { form: 'inline', params: null }],
]);

const KNOWN_LIST = [...RUNTIME_HELPERS.keys()].join(', ');

/** Every problem, in source order of the walk (the caller sorts diagnostics anyway). */
export function validateTemplate(ast: Program): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  new Validator(problems).program(ast, []);
  return problems;
}

/** A call site: a mustache, a block or a sub-expression, with its path as Handlebars' compiler sees it. */
interface Call {
  path: Expression;
  params: Expression[];
  hash?: Hash | undefined;
  loc: { start: { line: number; column: number } };
}

class Validator {
  constructor(private readonly problems: TemplateProblem[]) {}

  program(program: Program | undefined, blockParams: readonly string[]): void {
    if (program === undefined) return;
    const scope = program.blockParams ? [...blockParams, ...program.blockParams] : blockParams;
    for (const node of program.body) this.statement(node, scope);
  }

  private statement(node: Statement, scope: readonly string[]): void {
    switch (node.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        return;
      case 'Decorator':
      case 'DecoratorBlock':
        this.report(node, 'template/decorator', `decorators are not supported: {{*${nameOf(node.path)}}}`, {
          note: 'a bundle renders with the built-in helpers only; write the text out, or share it with an include (@file.md)',
        });
        return;
      case 'PartialStatement':
      case 'PartialBlockStatement':
        this.report(node, 'template/partial', `partials are not supported: {{> ${nameOf(node.name)}}}`, {
          note: 'a bundle has no partials; share text between sections with an include (@file.md)',
        });
        return;
      case 'MustacheStatement':
        this.call(node, 'inline', false, scope);
        return;
      case 'BlockStatement':
        this.call(node, 'block', false, scope);
        this.program(node.program, scope);
        this.program(node.inverse, scope);
        return;
    }
  }

  private call(node: Call, form: Form, subExpression: boolean, scope: readonly string[]): void {
    const path = asPath(node.path);
    if (path !== null && callsHelper(node, path, subExpression, scope)) this.helper(node, path, form);
    for (const param of node.params) this.expression(param, scope);
    for (const pair of node.hash?.pairs ?? []) this.expression(pair.value, scope);
  }

  private expression(node: Expression, scope: readonly string[]): void {
    if (node.type === 'SubExpression') this.call(node, 'inline', true, scope);
  }

  private helper(node: Call, path: PathExpression, form: Form): void {
    const name = path.original;
    const spec = isSimpleId(path) ? RUNTIME_HELPERS.get(name) : undefined;
    if (spec === undefined) {
      const what = isSimpleId(path) ? `unknown helper '${name}'` : `'${name}' is called as a helper, but only built-in helpers can be called`;
      this.report(node, 'template/unknown-helper', what, { note: `the helpers a bundle can call: ${KNOWN_LIST}` });
      return;
    }
    if (spec.form !== form) {
      const message =
        spec.form === 'block'
          ? `'${name}' is a block helper: write {{#${name} …}}…{{/${name}}}`
          : `'${name}' is not a block helper: write {{${name} …}}`;
      this.report(node, 'template/helper-form', message);
      return;
    }
    if (spec.params !== null && node.params.length !== spec.params) {
      const wanted = spec.params === 1 ? 'exactly one argument' : `exactly ${spec.params} arguments`;
      this.report(node, 'template/helper-arity', `${form === 'block' ? '#' : ''}${name} needs ${wanted}, got ${node.params.length}`);
    }
  }

  private report(node: { loc: Call['loc'] }, rule: TemplateRule, message: string, extra: { note?: string } = {}): void {
    const problem: TemplateProblem = { rule, message, line: node.loc.start.line, column: node.loc.start.column + 1 };
    if (extra.note !== undefined) problem.note = extra.note;
    this.problems.push(problem);
  }
}

/**
 * Handlebars' `classifySexpr`: a sub-expression, or a call with arguments,
 * calls a helper; so does a bare name of a compile-time known helper. A block
 * parameter is always a value, whatever follows it.
 */
function callsHelper(node: Call, path: PathExpression, subExpression: boolean, scope: readonly string[]): boolean {
  const simple = isSimpleId(path);
  if (simple && scope.includes(path.parts[0] ?? '')) return false;
  if (subExpression || hasArguments(node)) return true;
  return simple && KNOWN_HELPERS.has(path.parts[0] ?? '');
}

/** Handlebars' `transformLiteralToPath`: `{{"name" x}}` calls `name`; a sub-expression in place of a name is left alone. */
function asPath(node: Expression): PathExpression | null {
  if (node.type === 'PathExpression') return node;
  if (node.type === 'SubExpression') return null;
  const original = String((node as Literal).original ?? (node as Literal).value);
  return { type: 'PathExpression', data: false, depth: 0, parts: [original], original, loc: node.loc };
}

function nameOf(node: Expression): string {
  if (node.type === 'PathExpression') return node.original;
  if (node.type === 'SubExpression') return '(…)';
  return String(node.original ?? node.value);
}

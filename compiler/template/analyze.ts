/**
 * What a dynamic section's template reads from the top-level context, found
 * on the Handlebars AST. The build compares these names with the section's
 * declared inputs, so a reported name must be one the template really looks
 * up at the top level, and its position must point at the first place it does.
 */
import { fallbackReasonOf } from './support.js';
import Handlebars from 'handlebars';
import {
  hasArguments,
  isScoped,
  isSimpleId,
  KNOWN_HELPERS,
  type BlockStatement,
  type Expression,
  type Hash,
  type MustacheStatement,
  type PathExpression,
  type Program,
  type Statement,
  type SubExpression,
} from './ast.js';
import { parseTemplate, templateError, type TemplateError } from './parse.js';

/** A top-level context name; 1-based position in the template source. */
export interface TemplateVariable {
  name: string;
  line: number;
  column: number;
}

/** `ast`: the parsed template, for `generateThunkModule`, which would otherwise parse it again. */
export type TemplateAnalysis = { ok: true; variables: TemplateVariable[]; ast: Program } | { ok: false; error: TemplateError };

/** The first occurrence of each top-level variable, in source order; or the template's syntax error. */
export function analyzeTemplate(source: string): TemplateAnalysis {
  const parsed = parseTemplate(source);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  // Only constructs the fast path leaves to Handlebars can hold errors its compiler alone finds.
  const compileError = fallbackReasonOf(parsed.ast) === null ? undefined : compileErrorOf(source);
  if (compileError) return { ok: false, error: compileError };
  return { ok: true, variables: templateVariables(parsed.ast), ast: parsed.ast };
}

/** The top-level variables a parsed template reads: what `analyzeTemplate` gives, for a template parsed already. */
export function templateVariables(ast: Program): TemplateVariable[] {
  const found = new Map<string, TemplateVariable>();
  new Collector(found).program(ast, { level: 0, blockParams: [] });
  return [...found.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A few errors only show when Handlebars compiles the AST (e.g. a partial given two contexts). */
function compileErrorOf(source: string): TemplateError | undefined {
  try {
    Handlebars.precompile(source, { noEscape: true });
    return undefined;
  } catch (error) {
    return templateError(error);
  }
}

/**
 * `level` counts the blocks that changed the context on the way down (0 = the
 * top-level context); `../` climbs back. `#if`/`#unless` keep the context, so
 * they keep the level, as Handlebars' depth rule does.
 */
interface Scope {
  level: number;
  blockParams: readonly string[];
}

class Collector {
  constructor(private readonly found: Map<string, TemplateVariable>) {}

  program(program: Program | undefined, scope: Scope): void {
    if (program === undefined) return;
    const inner = program.blockParams ? { ...scope, blockParams: [...scope.blockParams, ...program.blockParams] } : scope;
    for (const statement of program.body) this.statement(statement, inner);
  }

  private statement(node: Statement, scope: Scope): void {
    switch (node.type) {
      case 'ContentStatement':
      case 'CommentStatement':
        return;
      case 'MustacheStatement':
      case 'Decorator':
        this.call(node, scope);
        return;
      case 'BlockStatement':
      case 'DecoratorBlock':
        this.call(node, scope);
        this.program(node.program, blockScope(node, scope));
        this.program(node.inverse, scope);
        return;
      case 'PartialStatement':
      case 'PartialBlockStatement':
        // The partial's name is not a context value, unless computed by a sub-expression.
        if (node.name.type === 'SubExpression') this.expression(node.name, scope);
        this.arguments(node.params, node.hash, scope);
        if (node.type === 'PartialBlockStatement') this.program(node.program, scope);
        return;
    }
  }

  /** A mustache, block or sub-expression: its path is a helper name or a context value; its arguments are expressions. */
  private call(node: MustacheStatement | BlockStatement | SubExpression, scope: Scope): void {
    const { path } = node;
    const isDecorator = node.type === 'Decorator' || node.type === 'DecoratorBlock';
    if (path.type === 'PathExpression' && !isDecorator && !namesHelper(node, path)) this.path(path, scope);
    if (path.type === 'SubExpression') this.expression(path, scope);
    this.arguments(node.params, node.hash, scope);
  }

  private arguments(params: Expression[], hash: Hash | undefined, scope: Scope): void {
    for (const param of params) this.expression(param, scope);
    for (const pair of hash?.pairs ?? []) this.expression(pair.value, scope);
  }

  private expression(node: Expression, scope: Scope): void {
    if (node.type === 'PathExpression') this.path(node, scope);
    else if (node.type === 'SubExpression') this.call(node, scope);
  }

  private path(path: PathExpression, scope: Scope): void {
    if (path.data) {
      // @root is the top-level context from any depth; other data (@index…) is not context.
      if (path.parts[0] === 'root' && path.parts[1] !== undefined) this.report(path.parts[1], path);
      return;
    }
    const [name] = path.parts;
    if (name === undefined) return; // `this`, `..`: the whole context, not a name in it
    if (!path.depth && !isScoped(path) && scope.blockParams.includes(name)) return;
    if (scope.level - path.depth === 0) this.report(name, path);
  }

  private report(name: string, path: PathExpression): void {
    const line = path.loc.start.line;
    const column = path.loc.start.column + 1;
    const seen = this.found.get(name);
    if (!seen || line < seen.line || (line === seen.line && column < seen.column)) {
      this.found.set(name, { name, line, column });
    }
  }
}

/**
 * Whether the path of a call names a helper rather than a context value, by
 * Handlebars' own classification: a known helper's name, or a bare name given
 * arguments (a custom helper). `{{a.b c}}` calls a function found in the
 * context, so `a` is still read from it.
 */
function namesHelper(node: { params: Expression[]; hash?: Hash }, path: PathExpression): boolean {
  if (path.data) return false;
  const known = KNOWN_HELPERS.has(path.parts[0] ?? '');
  if (hasArguments(node)) return known || isSimpleId(path);
  return known && isSimpleId(path);
}

/**
 * The scope of a block's main program. `#each` and `#with` render it with a new
 * context (except `#with this`); so does a section (`{{#items}}…{{/items}}`)
 * for an object or array. Other helpers are assumed to keep the context, as
 * `#if` does.
 */
function blockScope(node: BlockStatement, scope: Scope): Scope {
  const { path } = node;
  if (node.type === 'DecoratorBlock' || path.type !== 'PathExpression') return scope;
  const name = path.parts[0] ?? '';
  const changesContext = hasArguments(node)
    ? name === 'each' || (name === 'with' && !isThis(node.params[0]))
    : !KNOWN_HELPERS.has(name) || !isSimpleId(path);
  return changesContext ? { ...scope, level: scope.level + 1 } : scope;
}

function isThis(node: Expression | undefined): boolean {
  return node?.type === 'PathExpression' && !node.data && node.depth === 0 && node.parts.length === 0;
}

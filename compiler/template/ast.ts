/**
 * The Handlebars AST as `Handlebars.parse` really returns it, and the small
 * classification rules its compiler applies to it. The bundled `hbs.AST` types
 * are looser than the parser's output in places (optional `program`, `hash`),
 * so the template stages use these instead.
 */

export interface Position {
  line: number;
  column: number;
}

export interface SourceLocation {
  start: Position;
  end: Position;
}

export interface Program {
  type: 'Program';
  body: Statement[];
  blockParams?: string[];
  loc?: SourceLocation;
}

export type Statement =
  | ContentStatement
  | CommentStatement
  | MustacheStatement
  | BlockStatement
  | PartialStatement
  | PartialBlockStatement;

export interface ContentStatement {
  type: 'ContentStatement';
  /** The text after whitespace control and standalone-line stripping. */
  value: string;
  loc: SourceLocation;
}

export interface CommentStatement {
  type: 'CommentStatement';
  loc: SourceLocation;
}

export interface MustacheStatement {
  type: 'MustacheStatement' | 'Decorator';
  path: Expression;
  params: Expression[];
  hash?: Hash;
  loc: SourceLocation;
}

export interface BlockStatement {
  type: 'BlockStatement' | 'DecoratorBlock';
  path: Expression;
  params: Expression[];
  hash?: Hash;
  /** Absent for an inverse section (`{{^x}}…{{/x}}`) without `{{else}}`. */
  program?: Program;
  inverse?: Program;
  loc: SourceLocation;
}

export interface PartialStatement {
  type: 'PartialStatement';
  name: Expression;
  params: Expression[];
  hash?: Hash;
  loc: SourceLocation;
}

export interface PartialBlockStatement {
  type: 'PartialBlockStatement';
  name: Expression;
  params: Expression[];
  hash?: Hash;
  program: Program;
  loc: SourceLocation;
}

export type Expression = PathExpression | SubExpression | Literal;

export interface PathExpression {
  type: 'PathExpression';
  /** `@name` paths read the data frame (`@index`, `@root`…), not the context. */
  data: boolean;
  /** Number of leading `../`. */
  depth: number;
  /** The segments after `this`, `.` and `..` are removed. */
  parts: string[];
  original: string;
  loc: SourceLocation;
}

export interface SubExpression {
  type: 'SubExpression';
  path: Expression;
  params: Expression[];
  hash?: Hash;
  loc: SourceLocation;
}

export interface Literal {
  type: 'StringLiteral' | 'NumberLiteral' | 'BooleanLiteral' | 'UndefinedLiteral' | 'NullLiteral';
  value?: string | number | boolean;
  original?: string | number | boolean;
  loc: SourceLocation;
}

export interface Hash {
  type: 'Hash';
  pairs: { key: string; value: Expression }[];
}

/** Helpers Handlebars resolves at compile time (its `knownHelpers`); a simple id with one of these names is a helper call. */
export const KNOWN_HELPERS: ReadonlySet<string> = new Set([
  'helperMissing',
  'blockHelperMissing',
  'each',
  'if',
  'unless',
  'with',
  'log',
  'lookup',
]);

/** Handlebars' `AST.helpers.scopedId`: `this.x`, `./x`, `../x` never name a helper. Note it tests `original`, quirks included. */
export function isScoped(path: PathExpression): boolean {
  return /^\.|this\b/.test(path.original);
}

/** Handlebars' `AST.helpers.simpleId`: a bare name, which may be a helper or a context value. */
export function isSimpleId(path: PathExpression): boolean {
  return path.parts.length === 1 && !isScoped(path) && !path.depth;
}

/** Handlebars' `AST.helpers.helperExpression`: a call with parameters or a hash is always a helper call. */
export function hasArguments(node: { params: Expression[]; hash?: Hash }): boolean {
  return node.params.length > 0 || node.hash !== undefined;
}

/** The statements that produce output: comments and text emptied by whitespace control produce none. */
export function outputStatements(program: Program | undefined): Statement[] {
  if (program === undefined) return [];
  return program.body.filter(
    (node) => node.type !== 'CommentStatement' && !(node.type === 'ContentStatement' && node.value === ''),
  );
}

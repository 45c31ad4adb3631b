/**
 * Which templates the fast path compiles. It covers what prompt authors write
 * (values, `#if`/`#unless`/`#each`/`#with`, `else`, data variables) and nothing
 * else: anything outside that list goes to Handlebars' own compiler, which is
 * slower but right by definition. Being strict here is what lets the fast path
 * promise byte-identical output.
 */
import {
  hasArguments,
  isSimpleId,
  KNOWN_HELPERS,
  outputStatements,
  type BlockStatement,
  type Expression,
  type Hash,
  type PathExpression,
  type Program,
  type SourceLocation,
  type Statement,
} from './ast.js';

/** Why a template leaves the fast path, and where: the innermost construct to blame. */
export interface Fallback {
  reason: string;
  loc: SourceLocation;
}

/** The block helpers the fast path compiles. */
const FAST_BLOCKS: ReadonlySet<string> = new Set(['if', 'unless', 'each', 'with']);

/** Data variables the fast path knows: the top-level context and the `#each` frame. */
const FAST_DATA: ReadonlySet<string> = new Set(['root', 'index', 'key', 'first', 'last']);

/** `null` when the fast path compiles the whole template, else why it cannot (for a build note). */
export function fallbackReasonOf(ast: Program): string | null {
  return fallbackOf(ast)?.reason ?? null;
}

/** `fallbackReasonOf` with the position of the construct (the Python target refuses exactly these). */
export function fallbackOf(ast: Program): Fallback | null {
  return programFallback(ast, ast.loc);
}

/** `at`: where to point when the program itself is to blame (block parameters belong to the block's opening). */
function programFallback(program: Program | undefined, at: SourceLocation | undefined): Fallback | null {
  if (program === undefined) return null;
  if (program.blockParams?.length) return located(`block parameters (as |${program.blockParams.join(' ')}|)`, at ?? program.loc);
  for (const node of outputStatements(program)) {
    const found = node.type === 'BlockStatement' ? blockFallback(node) : located(statementReason(node), node.loc);
    if (found !== null) return found;
  }
  return null;
}

function located(reason: string | null, loc: SourceLocation | undefined): Fallback | null {
  return reason === null ? null : { reason, loc: loc ?? { start: { line: 1, column: 0 }, end: { line: 1, column: 0 } } };
}

function blockFallback(node: BlockStatement): Fallback | null {
  return located(blockOwnReason(node), node.loc) ?? programFallback(node.program, node.loc) ?? programFallback(node.inverse, node.loc);
}

function statementReason(node: Statement): string | null {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return null;
    case 'MustacheStatement':
      return mustacheReason(node.path, node);
    case 'Decorator':
    case 'DecoratorBlock':
      return 'a decorator';
    case 'PartialStatement':
    case 'PartialBlockStatement':
      return 'a partial';
    case 'BlockStatement':
      return blockOwnReason(node);
  }
}

function mustacheReason(path: Expression, node: { params: Expression[]; hash?: Hash }): string | null {
  if (path.type !== 'PathExpression') return `a ${describe(path)} in place of a name`;
  if (hasArguments(node)) return `a call of helper "${path.original}"`;
  if (isSimpleId(path) && KNOWN_HELPERS.has(path.parts[0] ?? '')) return `the helper "${path.original}" used as a value`;
  return pathReason(path);
}

/** What is wrong with the block's own opening tag, its programs aside. */
function blockOwnReason(node: BlockStatement): string | null {
  const { path } = node;
  if (path.type !== 'PathExpression') return `a block on a ${describe(path)}`;
  const name = path.parts[0] ?? '';
  if (!FAST_BLOCKS.has(name) || path.original !== name) {
    return hasArguments(node) ? `the block helper "${path.original}"` : `a section block {{#${path.original}}}`;
  }
  const [param] = node.params;
  if (node.params.length !== 1 || param === undefined) return `#${name} with ${node.params.length} parameters`;
  const hashReason = blockHashReason(name, node);
  if (hashReason !== null) return hashReason;
  return paramReason(param);
}

/** `#if`/`#unless` accept `includeZero` as a literal; every other hash argument goes to Handlebars. */
function blockHashReason(name: string, node: BlockStatement): string | null {
  for (const pair of node.hash?.pairs ?? []) {
    const literalZero = pair.key === 'includeZero' && (name === 'if' || name === 'unless') && isLiteral(pair.value);
    if (!literalZero) return `the hash argument ${pair.key}= on #${name}`;
  }
  return null;
}

function paramReason(param: Expression): string | null {
  if (param.type === 'PathExpression') return pathReason(param);
  if (param.type === 'SubExpression') return 'a sub-expression';
  return null;
}

function pathReason(path: PathExpression): string | null {
  if (!path.data) return null;
  const [name = ''] = path.parts;
  if (path.depth > 0 || !FAST_DATA.has(name)) return `the data variable ${path.original}`;
  return null;
}

function isLiteral(node: Expression): boolean {
  return node.type !== 'PathExpression' && node.type !== 'SubExpression';
}

function describe(node: Expression): string {
  return node.type === 'SubExpression' ? 'sub-expression' : 'literal';
}

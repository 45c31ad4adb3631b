/** What a template's shape asks of the code generated for it, in JavaScript and Python: loops, `depths`, block names, literals. */
import { outputStatements, type BlockStatement, type Expression, type Literal, type PathExpression, type Program } from './ast.js';

export function blockName(node: BlockStatement): string {
  return (node.path as PathExpression).parts[0] ?? '';
}

/** Whether a program (or block) holds an `#each`, which needs a loop, so statements. */
export function needsStatements(node: Program | BlockStatement | undefined): boolean {
  if (node === undefined) return false;
  if (node.type !== 'Program') {
    return blockName(node) === 'each' || needsStatements(node.program) || needsStatements(node.inverse);
  }
  return outputStatements(node).some((child) => child.type === 'BlockStatement' && needsStatements(child));
}

/** Whether anything in the program reads `../`: only then does the render track Handlebars' `depths`. */
export function usesDepths(program: Program | undefined): boolean {
  return outputStatements(program).some((node) => {
    if (node.type === 'MustacheStatement') return isDepthPath(node.path);
    if (node.type !== 'BlockStatement') return false;
    return node.params.some(isDepthPath) || usesDepths(node.program) || usesDepths(node.inverse);
  });
}

function isDepthPath(node: Expression): boolean {
  return node.type === 'PathExpression' && !node.data && node.depth > 0;
}

export function literalValue(node: Literal): unknown {
  return node.type === 'UndefinedLiteral' ? undefined : node.type === 'NullLiteral' ? null : node.value;
}

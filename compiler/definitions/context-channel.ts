/**
 * The git snapshot reaches the model through one channel: the system context
 * appended after the system prompt (docs/context.md#where-the-parts-go). A dynamic section may ask
 * whether there is one (`{{#if gitStatus}}`) but may not print it, or the
 * model would read the snapshot twice in one request.
 */
import type { Program, Statement } from '../template/ast.js';

/** Context values the runtime appends on its own, by the name a template reads them under. */
export const APPENDED_CONTEXT: readonly string[] = ['gitStatus'];

/** 1-based positions (in the template) of each `{{name}}` that prints an appended value. */
export function printedAppendedContext(ast: Program): Array<{ name: string; line: number; column: number }> {
  const found: Array<{ name: string; line: number; column: number }> = [];
  const walk = (body: readonly Statement[]): void => {
    for (const s of body) {
      if (s.type === 'MustacheStatement') {
        const p = s.path;
        if (p.type === 'PathExpression' && !p.data && p.depth === 0 && APPENDED_CONTEXT.includes(p.parts[0] ?? '') && s.params.length === 0) {
          found.push({ name: p.parts[0]!, line: s.loc.start.line, column: s.loc.start.column + 1 });
        }
      } else if (s.type === 'BlockStatement' && s.path.type === 'PathExpression' && ['if', 'unless'].includes(s.path.original)) {
        // The same context inside: a print there is still a second copy. Inside #each or #with the name means something else.
        if (s.program) walk(s.program.body);
        if (s.inverse) walk(s.inverse.body);
      }
    }
  };
  walk(ast.body);
  return found;
}

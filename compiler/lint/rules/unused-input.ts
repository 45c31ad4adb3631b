/**
 * `template/unused-input` (docs/lint.md#unused-inputs): an input a
 * dynamic section declares (`inputs:` or `optional:`) that its template
 * never reads. A caller still has to supply a required one, and the
 * declaration says the text depends on a value it does not.
 */
import { itemPosition } from '../../definitions/frontmatter-fields.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import { templateVariables } from '../../template/index.js';
import type { LintInput } from '../project.js';

export function unusedInputs(input: LintInput): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { def, compiled } of input.project.sections) {
    // A template that does not parse has its own error, and no reads to compare.
    if (def.kind !== 'dynamic' || !compiled.template) continue;
    const source = input.project.source(def.source);
    if (!source) continue;
    const read = new Set(templateVariables(compiled.template).map((v) => v.name));
    for (const name of def.inputs) {
      if (read.has(name)) continue;
      const key = def.optional.includes(name) && !listed(source.data.inputs, name) ? 'optional' : 'inputs';
      out.push(
        diagnostic('template/unused-input', def.source, itemPosition(source, key, name), `section '${def.name}' declares input '${name}' but its template never reads it`, {
          note: `remove '${name}' from \`${key}:\`, or read it in the text (\`{{${name}}}\`)`,
        }),
      );
    }
  }
  return out;
}

function listed(value: unknown, name: string): boolean {
  return Array.isArray(value) ? value.includes(name) : typeof value === 'string' && value.split(',').map((s) => s.trim()).includes(name);
}

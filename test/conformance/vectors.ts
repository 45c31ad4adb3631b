/**
 * Reading and (re)writing the committed conformance vectors. Each vector file
 * is computed by the JavaScript runtime from its seeds; a test recomputes it
 * and compares with what is committed, so a change in JavaScript behaviour
 * shows up as a failing test (and, once accepted with `UPDATE_VECTORS=1`, as a
 * diff the Python runtime must follow).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONFORMANCE_DIR = path.dirname(fileURLToPath(import.meta.url));

export const UPDATING = process.env.UPDATE_VECTORS === '1';

/** One case per line: reviewable diffs, a file that stays small. */
export function vectorJson(about: string, groups: Record<string, unknown>): string {
  const body = Object.entries(groups)
    .map(([key, cases]) =>
      Array.isArray(cases)
        ? `  ${JSON.stringify(key)}: [\n${cases.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]`
        : `  ${JSON.stringify(key)}: ${JSON.stringify(cases)}`,
    )
    .join(',\n');
  return `{\n  "about": ${JSON.stringify(about)},\n${body}\n}\n`;
}

/** The committed file's text, or (when updating) the computed text written over it. */
export function committedOrUpdated(file: string, computed: string): string {
  const target = path.join(CONFORMANCE_DIR, file);
  if (UPDATING) fs.writeFileSync(target, computed);
  return fs.readFileSync(target, 'utf8');
}

/** What rendering gave: the text, or the error by name (and the variable it names). */
export type Outcome = { output: string } | { error: string; variable?: string };

export function outcomeOf(render: () => string | null): Outcome {
  try {
    const output = render();
    return { output: output ?? '' };
  } catch (error) {
    const { name, variable } = error as { name: string; variable?: string };
    return variable === undefined ? { error: name } : { error: name, variable };
  }
}

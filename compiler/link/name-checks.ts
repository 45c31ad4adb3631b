/**
 * Stage 5's checks of names across the project: a section or agent name
 * claimed by two files, and two names that differ only by case (one file on
 * a disk that ignores case).
 */
import { fieldPosition } from '../definitions/frontmatter-fields.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { Source } from '../markdown/source.js';
import type { NameClaims } from './name-claims.js';

type What = 'section' | 'agent';

/** The name errors and warnings, by the path of the file that gets each. `sourceOf`: the source of a claiming file. */
export function nameDiagnostics(claims: Readonly<Record<What, NameClaims<unknown>>>, sourceOf: (rel: string) => Source): Map<string, Diagnostic[]> {
  const byFile = new Map<string, Diagnostic[]>();
  const add = (rel: string, d: Diagnostic): void => {
    const list = byFile.get(rel);
    if (list) list.push(d);
    else byFile.set(rel, [d]);
  };
  for (const what of ['section', 'agent'] as const) {
    const names = claims[what];
    for (const { name, rel, first } of names.duplicates()) add(rel, duplicate(what, name, rel, sourceOf(rel), first));
    for (const clash of names.caseCollisions()) add(clash.rel, caseCollision(what, clash, sourceOf(clash.rel)));
  }
  return byFile;
}

function namePosition(source: Source) {
  return source.data.name !== undefined ? fieldPosition(source, 'name') : { line: 1, column: 1 };
}

function duplicate(what: What, name: string, rel: string, source: Source, first: string): Diagnostic {
  const at = namePosition(source);
  if (what === 'agent') {
    // Claude Code loads agents of one name from several places and one shadows the rest; so does the bundle, by a fixed rule.
    return diagnostic('agent/duplicate-name', rel, at, `agent name '${name}' is also defined in ${first}; that one is used and this one is left out`, {
      severity: 'warning',
      note: 'of agents with one name, the first in path order wins; rename one to keep both (config `rules: { "agent/duplicate-name": "error" }` makes this an error)',
    });
  }
  return diagnostic('section/duplicate-name', rel, at, `${what} name '${name}' is already used`, { note: `first defined in ${first}` });
}

function caseCollision(what: What, clash: { rel: string; name: string; other: string; otherRel: string }, source: Source): Diagnostic {
  return diagnostic(`${what}/case-collision`, clash.rel, namePosition(source), `${what} name '${clash.name}' differs from '${clash.other}' (${clash.otherRel}) only by case`, {
    note: 'their artifact files would be one file on a disk that ignores case (macOS, Windows): rename one',
  });
}

/**
 * `static/volatile-value` (docs/lint.md#volatile-values): a date, a
 * time of day, a weekday said to be today, a Unix timestamp or a UUID
 * written into a static section or an agent's prompt, outside code. Such a
 * value is most often put there by whatever generated the text — and each
 * time it changes, the static prefix changes for every user: a global cache
 * bust, daily for a date.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import type { RuleContext } from '../rule-context.js';
import type { LintInput } from '../project.js';

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';

/** Each kind of value, most specific first: a place is reported once, as the first kind that finds it. */
const KINDS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'a timestamp', pattern: /\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?\b/g },
  { what: 'a date', pattern: /\b(?:19|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/g },
  { what: 'a date', pattern: new RegExp(`\\b${MONTH}\\.? (?:0?[1-9]|[12]\\d|3[01])(?:st|nd|rd|th)?,? (?:19|20)\\d\\d\\b`, 'g') },
  { what: 'a date', pattern: new RegExp(`\\b(?:0?[1-9]|[12]\\d|3[01]) ${MONTH}\\.? (?:19|20)\\d\\d\\b`, 'g') },
  { what: 'a date', pattern: /\b(?:0?[1-9]|1[0-2])\/(?:0?[1-9]|[12]\d|3[01])\/(?:19|20)\d\d\b/g },
  { what: 'a time of day', pattern: /\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)? ?(?:[AaPp]\.?[Mm]\.?|UTC|GMT|[A-Z][SD]T)(?!\w)/g },
  { what: 'a time of day', pattern: /\b(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\b/g },
  { what: 'the weekday', pattern: new RegExp(`\\b(?:[Tt]oday is|[Ii]t is|[Ii]t's) ${WEEKDAY}\\b`, 'g') },
  { what: 'a Unix timestamp', pattern: /(?<![\w.])1[4-9]\d{8}(?:\d{3})?(?!\w|\.\d)/g },
  { what: 'a UUID', pattern: /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}\b/g },
];

export function volatileValues(input: LintInput, context: RuleContext): Diagnostic[] {
  const texts = [
    ...input.project.sections.filter(({ def }) => def.kind === 'static').map(({ def, compiled }) => ({ what: `static section '${def.name}'`, compiled })),
    ...input.project.agents.map(({ def, compiled }) => ({ what: `agent '${def.name}'`, compiled })),
  ];
  const out: Diagnostic[] = [];
  for (const { what, compiled } of texts) {
    const taken = new Set<number>();
    for (const kind of KINDS) {
      for (const { match, at } of context.matches(compiled, kind.pattern)) {
        const start = match.index ?? 0;
        if (taken.has(start)) continue;
        for (let i = start; i < start + match[0].length; i++) taken.add(i);
        out.push(
          diagnostic('static/volatile-value', at.file, at, `${kind.what} in ${what}: '${match[0]}'`, {
            note: 'if it changes (written by a script, updated by hand), each change is a new static prefix: a prompt-cache miss for every user. Give it to a dynamic section as an input (`{{today}}`); a value that never changes can stay, in code (`…`) or with the rule set to off',
          }),
        );
      }
    }
  }
  return out;
}

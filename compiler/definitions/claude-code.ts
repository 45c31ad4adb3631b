/**
 * What a file of a Claude Code project declares (a skill, a command, an
 * output style, a rule: docs/claude-code.md), read as Claude Code reads it and
 * checked against the fields its documentation lists (claude-code-fields.ts).
 * Claude Code does nothing with a field it does not know, so a misspelt one
 * is a warning with the field meant; a file it would skip says so.
 */
import { diagnostic, hasErrors, type Diagnostic } from '../diagnostics/diagnostics.js';
import { closest } from '../diagnostics/did-you-mean.js';
import { FieldReader, fieldPosition } from './frontmatter-fields.js';
import type { Read } from './definitions.js';
import type { Source } from '../markdown/source.js';
import { manifestKeyProblem, shownName } from './names.js';
import {
  CLAUDE_FIELDS,
  KIND_NAMES,
  LISTING_DESCRIPTION_CAP,
  OTHER_TOOLS_FIELDS,
  SKILL_NAME,
  SKILL_NAME_MAX,
  type ClaudeKind,
  type ClaudePlace,
  type FieldType,
} from './claude-code-fields.js';
import { globProblem } from './glob-check.js';

export interface ClaudeFileDef {
  kind: ClaudeKind;
  key: string;
  skill?: string;
  source: string;
  /** The frontmatter Claude Code reads, as written (prompt-build's own `comments` left out). */
  fields: Record<string, unknown>;
}

export function readClaudeFile(source: Source, place: ClaudePlace): Read<ClaudeFileDef> {
  const f = new FieldReader(source, source.data);
  const known = CLAUDE_FIELDS[place.kind];
  const what = KIND_NAMES[place.kind];
  if (place.kind !== 'skill-file') {
    for (const key of Object.keys(source.data)) {
      if (Object.hasOwn(known, key)) checkType(f, source.data, key, known[key]!);
      else f.report('claude/unknown-field', key, `Claude Code reads no '${shownName(key)}' in ${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}: the field does nothing`, unknownNote(key, Object.keys(known)), 'warning');
    }
  }
  f.oneOf('comments', ['keep', 'strip'] as const);
  // Each of these is a key of the manifest's `claudeCode`: one it cannot hold would vanish from the bundle.
  for (const name of place.skill === undefined ? [place.key] : [place.skill, place.key]) {
    const problem = manifestKeyProblem(name);
    if (problem) f.report('claude/invalid-name', '', `name '${shownName(name)}' ${problem}`, 'rename the file or folder');
  }
  if (place.kind === 'skill' || place.kind === 'command') {
    skillName(f, source);
    const cut = listingCut(source);
    if (cut) f.diagnostics.push(cut);
  }
  if (place.kind === 'rule' || place.kind === 'skill' || place.kind === 'command') globs(f, source, what);
  if (hasErrors(f.diagnostics)) return { def: null, diagnostics: f.diagnostics };
  const fields = Object.fromEntries(Object.entries(source.data).filter(([key]) => key !== 'comments'));
  const def: ClaudeFileDef = { kind: place.kind, key: place.key, source: source.rel, fields };
  if (place.skill !== undefined) def.skill = place.skill;
  return { def, diagnostics: f.diagnostics };
}

function checkType(f: FieldReader, data: Record<string, unknown>, key: string, type: FieldType): void {
  switch (type) {
    case 'string':
      f.string(key, 'claude/invalid-field');
      return;
    case 'boolean':
      f.boolean(key, 'claude/invalid-field');
      return;
    case 'strings':
      f.stringList(key, { commaSeparated: true, rule: 'claude/invalid-field' });
      return;
    case 'fork':
      f.oneOf(key, ['fork'] as const, 'claude/invalid-field');
      return;
    case 'any':
      return;
    case 'mapping':
      if (f.has(key) && (typeof data[key] !== 'object' || Array.isArray(data[key]))) f.report('claude/invalid-field', key, `'${key}' must be a mapping of keys to values`);
      return;
  }
}

function unknownNote(key: string, known: readonly string[]): string {
  const instead = Object.hasOwn(OTHER_TOOLS_FIELDS, key) ? OTHER_TOOLS_FIELDS[key] : undefined;
  if (instead !== undefined && known.includes(instead)) return `another tool reads '${key}'; Claude Code reads '${instead}'`;
  const near = closest(key, known);
  return near ? `did you mean '${near}'?` : `the fields Claude Code reads here: ${known.filter((k) => k !== 'comments').join(', ')}`;
}

/** A skill's or command's `name`, when written: the form the documentation gives (a warning: Claude Code still lists it). */
function skillName(f: FieldReader, source: Source): void {
  const name = source.data.name;
  if (typeof name !== 'string') return;
  if (!SKILL_NAME.test(name) || name.length > SKILL_NAME_MAX) {
    f.report('claude/invalid-field', 'name', `name '${shownName(name)}' is not lowercase letters, digits and hyphens of at most ${SKILL_NAME_MAX} characters, as Claude Code documents it`, undefined, 'warning');
  }
}

/**
 * The skill listing shows `description` and `when_to_use` together, cut at
 * 1,536 characters: what follows the cut never reaches the model. Reported
 * at the first word it loses, when the words can be found as written.
 */
function listingCut(source: Source): Diagnostic | null {
  const description = typeof source.data.description === 'string' ? source.data.description : '';
  const whenToUse = typeof source.data.when_to_use === 'string' ? source.data.when_to_use : '';
  const total = description.length + (whenToUse === '' ? 0 : whenToUse.length + 1);
  if (total <= LISTING_DESCRIPTION_CAP) return null;
  const inDescription = description.length > LISTING_DESCRIPTION_CAP;
  const key = inDescription ? 'description' : 'when_to_use';
  const value = inDescription ? description : whenToUse;
  const offset = inDescription ? LISTING_DESCRIPTION_CAP : LISTING_DESCRIPTION_CAP - description.length - 1;
  const lost = value.slice(offset, offset + 24);
  const at = writtenAt(source, key, lost) ?? fieldPosition(source, key);
  return diagnostic('claude/description-truncated', source.rel, at, `Claude Code cuts this skill's description at ${LISTING_DESCRIPTION_CAP.toLocaleString('en-US')} characters (description and when_to_use together, ${total.toLocaleString('en-US')} here): the listing ends before '${shownName(lost)}'`, {
    severity: 'warning',
    note: 'the model chooses a skill by what the listing shows: put what decides it first, or move detail into the body',
  });
}

/** Where `words` are written in the frontmatter, after `key:`; null when the YAML wrote them otherwise (folded, escaped). */
function writtenAt(source: Source, key: string, words: string): { line: number; column: number; excerpt: string } | null {
  if (words.trim() === '') return null;
  const front = source.text.slice(0, source.bodyOffset);
  const from = fieldPosition(source, key);
  const lines = front.split('\n');
  let start = 0;
  for (let i = 0; i < from.line - 1; i++) start += lines[i]!.length + 1;
  const probe = words.split('\n')[0]!.slice(0, 12);
  const found = front.indexOf(probe, start);
  if (probe === '' || found === -1) return null;
  const before = front.slice(0, found);
  const line = before.split('\n').length;
  return { line, column: found - before.lastIndexOf('\n'), excerpt: lines[line - 1]! };
}

/** `paths` of a rule (or of a skill, which then loads only for such files): each must be a glob that can match a path in the project. */
function globs(f: FieldReader, source: Source, what: string): void {
  const value = source.data.paths;
  const list = typeof value === 'string' ? splitGlobs(value) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  for (const glob of list) {
    const problem = globProblem(glob);
    if (problem) f.reportItem('claude/invalid-glob', 'paths', glob, `paths: '${shownName(glob)}' ${problem}: Claude Code never loads this ${what} for it`, undefined, 'warning');
  }
}

/** `a/**, b/*.{ts,tsx}` → its globs: commas inside braces are the glob's own. */
function splitGlobs(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '{') depth++;
    else if (value[i] === '}') depth = Math.max(0, depth - 1);
    else if (value[i] === ',' && depth === 0) {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out;
}

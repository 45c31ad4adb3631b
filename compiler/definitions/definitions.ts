/**
 * What each source file declares, read from its frontmatter and validated:
 * sections (`prompts/sections/**`), profiles (`prompts/profiles/*`) and
 * agents (`agents/**`), each folder where the project keeps it
 * (core/source-dirs.ts). Every other `.md` under `prompts/` is a fragment.
 */
import path from 'node:path';
import type { CachePolicy } from '../runtime/manifest.js';
import { diagnostic, hasErrors, lineText, type Diagnostic } from '../diagnostics/diagnostics.js';
import { closest } from '../diagnostics/did-you-mean.js';
import { FieldReader } from './frontmatter-fields.js';
import { fileNameProblem, manifestKeyProblem, shownName } from './names.js';
import type { Source } from '../markdown/source.js';
import { CLAUDE_CODE_DIR_KEYS, DEFAULT_SOURCE_DIRS, type SourceDirs } from '../core/source-dirs.js';
import { claudePlace, type ClaudePlace } from './claude-code-fields.js';

export type SourceRole = 'section' | 'profile' | 'agent' | 'claude' | 'fragment';

/** The role of a root-relative path, from the authoring layout alone. */
export function roleOf(rel: string, dirs: SourceDirs = DEFAULT_SOURCE_DIRS): SourceRole {
  if (claudePlaceOf(rel, dirs)) return 'claude';
  const profiles = `${dirs.prompts}/profiles/`;
  if (rel.startsWith(`${dirs.prompts}/sections/`)) return 'section';
  if (rel.startsWith(profiles) && !rel.slice(profiles.length).includes('/')) return 'profile';
  if (rel.startsWith(`${dirs.agents}/`)) return 'agent';
  return 'fragment';
}

/** Where a file of a Claude Code folder the config names sits (skill, command, output style, rule), or null for any other path. */
export function claudePlaceOf(rel: string, dirs: SourceDirs): ClaudePlace | null {
  for (const key of CLAUDE_CODE_DIR_KEYS) {
    const dir = dirs[key];
    if (dir !== undefined && rel.startsWith(`${dir}/`)) return claudePlace(key, rel.slice(dir.length + 1));
  }
  return null;
}

interface SectionBase {
  name: string;
  source: string;
  description?: string;
}
export interface StaticSectionDef extends SectionBase {
  kind: 'static';
  /** `{{…}}` in the text is literal, meant for the model. */
  verbatim: boolean;
}
export interface DynamicSectionDef extends SectionBase {
  kind: 'dynamic';
  cache: CachePolicy;
  reason?: string;
  /** Declared context variables: required ones and `optional` ones. */
  inputs: string[];
  optional: string[];
}
export type SectionDef = StaticSectionDef | DynamicSectionDef;

export interface ProfileDef {
  name: string;
  source: string;
  description: string;
  sections: string[];
  /** Warn when the static prefix is below the provider's cacheable minimum (`cacheWarning: false` for prompts short by design). */
  cacheWarning: boolean;
}

export interface AgentDef {
  name: string;
  source: string;
  description: string;
  tools: string[];
  model?: string;
  temperature?: number;
  maxTokens?: number;
  extra: Record<string, unknown>;
}

export type Read<T> = { def: T | null; diagnostics: Diagnostic[] };

const SECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const AGENT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VARIABLE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function readSection(source: Source): Read<SectionDef> {
  const f = new FieldReader(source, source.data);
  const written = f.exactString('name', 'section/invalid-name');
  const name = written ?? stem(source.rel);
  const nameKey = written === undefined ? '' : 'name';
  if (!SECTION_NAME.test(name)) {
    f.report('section/invalid-name', nameKey, `section name '${shownName(name)}' must be letters, digits, '-' or '_'`);
  } else {
    const problem = fileNameProblem(name);
    if (problem) f.report('section/invalid-name', nameKey, `section name '${shownName(name)}' ${problem}`);
  }
  const kind = f.oneOf('kind', ['static', 'dynamic'] as const) ?? 'static';
  const description = f.string('description');
  const base = { name, source: source.rel, ...(description === undefined ? {} : { description }) };
  if (kind === 'static') {
    for (const key of ['cache', 'reason', 'inputs', 'optional'] as const) {
      if (f.has(key)) f.report('frontmatter/invalid-field', key, `'${key}' applies to dynamic sections only`, 'add `kind: dynamic`');
    }
    const verbatim = f.boolean('verbatim') ?? false;
    if (commentPolicy(f) === 'strip' && verbatim) f.report('frontmatter/invalid-field', 'comments', 'a verbatim section keeps every byte, comments included', 'drop `comments: strip`, or `verbatim: true`');
    return { def: { ...base, kind, verbatim }, diagnostics: f.diagnostics };
  }
  if (f.has('verbatim')) f.report('frontmatter/invalid-field', 'verbatim', "'verbatim' applies to static sections only");
  commentPolicy(f);
  const cache = f.oneOf('cache', ['cached', 'uncached'] as const) ?? 'cached';
  const reason = f.string('reason')?.trim();
  if (cache === 'uncached' && !reason) {
    f.report(
      'section/uncached-without-reason',
      'cache',
      `section '${name}' is uncached but gives no reason`,
      'an uncached section is recomputed on every request and can break the prompt cache; write `reason:` to say why it must be',
    );
  }
  if (cache === 'cached' && f.has('reason')) f.report('frontmatter/invalid-field', 'reason', "'reason' is for uncached sections only");
  const inputs = variables(f, 'inputs');
  const optional = variables(f, 'optional');
  const def: DynamicSectionDef = {
    ...base,
    kind,
    cache,
    inputs: [...new Set([...inputs, ...optional])].sort(),
    optional: [...new Set(optional)].sort(),
  };
  if (cache === 'uncached' && reason) def.reason = reason;
  return { def, diagnostics: f.diagnostics };
}

/** `comments: keep | strip` (read again where the text is expanded: include/expand.ts). */
function commentPolicy(f: FieldReader): 'keep' | 'strip' | undefined {
  return f.oneOf('comments', ['keep', 'strip'] as const);
}

/** A fragment declares nothing but, optionally, its comment policy. */
export function readFragment(source: Source): Diagnostic[] {
  const f = new FieldReader(source, source.data);
  commentPolicy(f);
  return f.diagnostics;
}

function variables(f: FieldReader, key: string): string[] {
  const list = f.stringList(key) ?? [];
  for (const v of list) {
    if (!VARIABLE.test(v)) f.reportItem('frontmatter/invalid-field', key, v, `'${v}' is not a valid variable name`);
  }
  return list.filter((v) => VARIABLE.test(v));
}

export function readProfile(source: Source): Read<ProfileDef> {
  const f = new FieldReader(source, source.data);
  const keyProblem = manifestKeyProblem(stem(source.rel));
  if (keyProblem) f.report('profile/invalid-name', '', `profile name '${stem(source.rel)}' ${keyProblem}`, 'rename the file');
  const sections = f.stringList('sections');
  if (sections === undefined && !f.has('sections')) {
    f.report('profile/empty', 'sections', `profile '${stem(source.rel)}' lists no sections`, 'add `sections:` with the ordered section names');
  } else if (sections?.length === 0) {
    f.report('profile/empty', 'sections', `profile '${stem(source.rel)}' lists no sections`);
  }
  const description = f.string('description') ?? firstParagraph(source.body);
  const cacheWarning = f.boolean('cacheWarning') ?? true;
  const def = sections?.length ? { name: stem(source.rel), source: source.rel, description, sections, cacheWarning } : null;
  return { def, diagnostics: f.diagnostics };
}

const AGENT_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'tools', 'model', 'temperature', 'maxTokens', 'comments']);

export function readAgent(source: Source, knownTools: readonly string[] | null = null): Read<AgentDef> {
  const f = new FieldReader(source, source.data);
  const missing = missingAgentFields(source);
  if (missing) return { def: null, diagnostics: [missing] };
  const name = f.exactString('name', 'agent/invalid-field');
  const description = f.string('description', 'agent/invalid-field');
  if (name !== undefined) {
    // The file-name rules first: they hold whatever the naming convention (lowercase and hyphens) says.
    const problem = fileNameProblem(name);
    if (problem) f.report('agent/invalid-field', 'name', `agent name '${shownName(name)}' ${problem}`);
    else if (!AGENT_NAME.test(name)) {
      // Claude Code loads such names (`powershell-5.1-expert`); its documentation asks for lowercase letters, digits and hyphens.
      f.report('agent/name-style', 'name', `agent name '${shownName(name)}' is not lowercase letters, digits and hyphens, as Claude Code documents agent names`, undefined, 'warning');
    }
  }
  if (description !== undefined && description.trim() === '') f.report('agent/invalid-field', 'description', "'description' is empty");
  const tools = f.stringList('tools', { commaSeparated: true, rule: 'agent/invalid-field' }) ?? [];
  if (knownTools) for (const tool of unknownTools(tools, knownTools)) f.reportItem('agent/unknown-tool', 'tools', tool, `agent names tool '${tool}', which the project's tool list does not hold`, toolNote(tool, knownTools), 'warning');
  const model = f.string('model', 'agent/invalid-field');
  const temperature = f.number('temperature', (n) => n >= 0 && n <= 2, 'a number from 0 to 2', 'agent/invalid-field');
  commentPolicy(f);
  const maxTokens = f.number('maxTokens', (n) => Number.isInteger(n) && n > 0, 'a positive integer', 'agent/invalid-field');
  const extra = Object.fromEntries(Object.entries(source.data).filter(([key]) => !AGENT_KEYS.has(key)));
  if (hasErrors(f.diagnostics) || name === undefined || description === undefined) return { def: null, diagnostics: f.diagnostics };
  const def: AgentDef = { name, source: source.rel, description, tools, extra };
  if (model !== undefined) def.model = model;
  if (temperature !== undefined) def.temperature = temperature;
  if (maxTokens !== undefined) def.maxTokens = maxTokens;
  return { def, diagnostics: f.diagnostics };
}

/**
 * Claude Code skips an agent file without a `name` or a `description`
 * ("Missing required … field" in /doctor): so does the bundle, with one line
 * saying so, a warning unless the project makes it an error. Nothing else
 * in the file is checked: it reaches no prompt.
 */
export function missingAgentFields(source: Source): Diagnostic | null {
  const missing = (['name', 'description'] as const).filter((key) => source.data[key] === undefined || source.data[key] === null);
  if (missing.length === 0) return null;
  const what = missing.map((key) => `'${key}'`).join(' nor ');
  const add = missing.map((key) => `\`${key}:\``).join(' and ');
  return diagnostic('agent/missing-field', source.rel, { line: 1, column: 1, excerpt: lineText(source.text, 1) }, `Claude Code skips this file: its frontmatter has no ${what}`, {
    severity: 'warning',
    brief: true,
    note: `add ${add} to the frontmatter; to fail the build on such a file instead: rules: { 'agent/missing-field': 'error' } in the config`,
  });
}

/**
 * Tools not on the list. MCP tools (`mcp__server__tool`) come from servers a
 * list cannot know; `Bash(git:*)` is the tool `Bash` with a permission pattern.
 */
function unknownTools(tools: readonly string[], known: readonly string[]): string[] {
  return tools.filter((tool) => !tool.startsWith('mcp__') && !known.includes(tool.replace(/\(.*\)$/s, '')));
}

function toolNote(tool: string, known: readonly string[]): string {
  const near = closest(tool, known);
  return near ? `did you mean '${near}'?` : `known tools: ${known.join(', ')} (config \`agents.tools\`)`;
}

function stem(rel: string): string {
  return path.posix.basename(rel, path.posix.extname(rel));
}

function firstParagraph(body: string): string {
  return body.trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim() ?? '';
}

/** The frontmatter keys each kind of file takes, with a line each: what completion offers (docs/authoring.md). */
import { CLAUDE_FIELDS, KIND_NAMES, type ClaudeKind, type FieldType } from '../definitions/claude-code-fields.js';

export interface FieldDoc {
  name: string;
  /** The values it takes, when they are few. */
  values?: string;
  doc: string;
}

const COMMENTS: FieldDoc = { name: 'comments', values: 'keep | strip', doc: 'Keep or remove block-level HTML comments here (default: the project’s setting).' };

export const SECTION_FIELDS: readonly FieldDoc[] = [
  { name: 'name', doc: 'The section’s name, as profiles list it (default: the file name).' },
  { name: 'kind', values: 'static | dynamic', doc: 'static: the same text for every user, cached globally; dynamic: a Handlebars template rendered per session.' },
  { name: 'description', doc: 'What the section is for (shown by inspect and the report).' },
  { name: 'cache', values: 'cached | uncached', doc: 'A dynamic section: computed once per session (cached) or on every turn (uncached, needs a reason).' },
  { name: 'reason', doc: 'Why an uncached section must be recomputed every turn.' },
  { name: 'inputs', doc: 'The context variables the template reads; one not declared is a build error.' },
  { name: 'optional', doc: 'The inputs that may be missing from the context.' },
  { name: 'verbatim', values: 'true | false', doc: 'A static section kept byte for byte: no include, no comment removed, `{{…}}` literal.' },
  COMMENTS,
];

export const PROFILE_FIELDS: readonly FieldDoc[] = [
  { name: 'sections', doc: 'The sections in order, static first: the boundary falls after the last static one.' },
  { name: 'description', doc: 'What the profile is for (default: the body’s first paragraph).' },
  { name: 'cacheWarning', values: 'true | false', doc: 'false silences the warning for a static prefix that is short by design.' },
];

/** The fields Claude Code reads in an agent file, and the bundle records. */
export const AGENT_FIELDS: readonly FieldDoc[] = [
  { name: 'name', doc: 'The agent’s name (lower case and hyphens, as Claude Code expects); required.' },
  { name: 'description', doc: 'When to use the agent: Claude Code reads it to decide; required.' },
  { name: 'tools', doc: 'The tools it may use, a list or a comma-separated string (default: all).' },
  { name: 'model', doc: 'The model it runs on (sonnet, opus, haiku, inherit or a model id).' },
  { name: 'temperature', doc: 'Sampling temperature, 0 to 2.' },
  { name: 'maxTokens', doc: 'The most tokens a reply may have.' },
  COMMENTS,
];

const CLAUDE_VALUES: Readonly<Record<FieldType, string | undefined>> = { boolean: 'true | false', fork: 'fork', string: undefined, strings: undefined, mapping: undefined, any: undefined };

/** The fields Claude Code reads in a skill, command, output style or rule, as its documentation lists them (docs/claude-code.md#fields). */
export function claudeFields(kind: ClaudeKind): FieldDoc[] {
  return Object.entries(CLAUDE_FIELDS[kind]).map(([name, type]) => {
    if (name === 'comments') return COMMENTS;
    const values = CLAUDE_VALUES[type];
    return { name, ...(values === undefined ? {} : { values }), doc: `Read by Claude Code in a ${KIND_NAMES[kind]}.` };
  });
}

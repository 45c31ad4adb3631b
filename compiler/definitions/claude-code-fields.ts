/**
 * The frontmatter fields Claude Code reads in the files of a project besides
 * its agents, by kind, as its documentation lists them (looked up 2026-12-04
 * with the search tool: the output styles page itself, and for skills and
 * rules copies of the pages' tables kept by others):
 *
 * | kind | fields | documented at |
 * |---|---|---|
 * | skill (`<skills>/<name>/SKILL.md`) | `name` (lowercase letters, digits, hyphens, at most 64), `description`, `when_to_use`, `argument-hint`, `arguments`, `disable-model-invocation`, `user-invocable`, `allowed-tools`, `model`, `effort`, `context` (`fork`), `agent`, `hooks`, `paths`, `shell`; the Agent Skills standard's `license`, `compatibility`, `metadata` | https://code.claude.com/docs/en/skills#frontmatter-reference |
 * | command (`<commands>/**.md`) | the skill fields: "a file at `.claude/commands/review.md` and a skill at `.claude/skills/review/SKILL.md` both create `/review` and work the same way" | https://code.claude.com/docs/en/skills |
 * | output style (`<outputStyles>/*.md`) | `name`, `description`, `keep-coding-instructions` | https://code.claude.com/docs/en/output-styles#frontmatter |
 * | rule (`<rules>/**.md`) | `paths` (globs: a list, or a string with commas between them; none: the rule always loads) | https://code.claude.com/docs/en/memory#path-specific-rules |
 *
 * The skill listing shows a skill's `description` and `when_to_use` together
 * cut at 1,536 characters (same page). Every kind also takes prompt-build's
 * own `comments` (docs/authoring.md#comments), which Claude Code ignores.
 */
import type { ClaudeCodeDirKey } from '../core/source-dirs.js';

export type ClaudeKind = 'skill' | 'skill-file' | 'command' | 'output-style' | 'rule';

/** `any`: a field whose shape the documentation leaves open, checked for nothing but its name. */
export type FieldType = 'string' | 'boolean' | 'strings' | 'mapping' | 'fork' | 'any';

const SKILL_FIELDS: Readonly<Record<string, FieldType>> = {
  name: 'string',
  description: 'string',
  when_to_use: 'string',
  'argument-hint': 'string',
  arguments: 'any',
  'disable-model-invocation': 'boolean',
  'user-invocable': 'boolean',
  'allowed-tools': 'strings',
  model: 'string',
  effort: 'string',
  context: 'fork',
  agent: 'string',
  hooks: 'mapping',
  paths: 'strings',
  shell: 'string',
  license: 'string',
  compatibility: 'string',
  metadata: 'mapping',
  comments: 'string',
};

/** Each kind's fields and their types. A reference file of a skill is read by the model as it is: it has no fields. */
export const CLAUDE_FIELDS: Readonly<Record<ClaudeKind, Readonly<Record<string, FieldType>>>> = {
  skill: SKILL_FIELDS,
  command: SKILL_FIELDS,
  'output-style': { name: 'string', description: 'string', 'keep-coding-instructions': 'boolean', comments: 'string' },
  rule: { paths: 'strings', comments: 'string' },
  'skill-file': {},
};

/** The characters of `description` + `when_to_use` the skill listing shows. */
export const LISTING_DESCRIPTION_CAP = 1536;

/** A skill's `name`, as documented. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SKILL_NAME_MAX = 64;

/** Fields other tools read where Claude Code reads another: what to write instead. */
export const OTHER_TOOLS_FIELDS: Readonly<Record<string, string>> = {
  tools: 'allowed-tools',
  globs: 'paths',
  alwaysApply: 'paths',
  'when-to-use': 'when_to_use',
  whenToUse: 'when_to_use',
};

/** What each kind is called in messages. */
export const KIND_NAMES: Readonly<Record<ClaudeKind, string>> = {
  skill: 'skill',
  'skill-file': "skill's reference file",
  command: 'command',
  'output-style': 'output style',
  rule: 'rule',
};

/** Where a file of a Claude Code folder sits: its kind and its key in the manifest. */
export interface ClaudePlace {
  kind: ClaudeKind;
  /** skill: its folder's name; command: its name, folders joined by `:`; style, rule: its path in the folder, without `.md`; reference file: its path in the skill folder. */
  key: string;
  /** The skill folder's name, for a skill and its reference files; none for a file straight in the skills folder. */
  skill?: string;
}

/** The place of `rest`, a path inside the folder `dir` names (without the folder). */
export function claudePlace(dir: ClaudeCodeDirKey, rest: string): ClaudePlace {
  const stem = rest.replace(/\.md$/, '');
  switch (dir) {
    case 'skills': {
      const slash = rest.indexOf('/');
      if (slash === -1) return { kind: 'skill-file', key: rest };
      const skill = rest.slice(0, slash);
      const inside = rest.slice(slash + 1);
      return inside === 'SKILL.md' ? { kind: 'skill', key: skill, skill } : { kind: 'skill-file', key: inside, skill };
    }
    case 'commands':
      return { kind: 'command', key: stem.replaceAll('/', ':') };
    case 'outputStyles':
      return { kind: 'output-style', key: stem };
    case 'rules':
      return { kind: 'rule', key: stem };
  }
}

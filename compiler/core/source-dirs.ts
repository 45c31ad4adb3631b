/**
 * Where a project keeps its sources: the prompt set (sections, profiles,
 * fragments) and the agents, as root-relative folders. `prompts` and
 * `agents` unless the config says otherwise — e.g. `.claude/agents`, where
 * Claude Code reads a project's agents. The rest of a Claude Code project
 * (skills, commands, output styles, rules: docs/claude-code.md) is a source
 * only when the config names its folder.
 */
import path from 'node:path';

/** The Claude Code folders a config may name besides the agents (definitions/claude-code-fields.ts). */
export const CLAUDE_CODE_DIR_KEYS = ['skills', 'commands', 'outputStyles', 'rules'] as const;
export type ClaudeCodeDirKey = (typeof CLAUDE_CODE_DIR_KEYS)[number];

export interface SourceDirs extends Partial<Record<ClaudeCodeDirKey, string>> {
  /** Root-relative POSIX path, no trailing `/`. */
  prompts: string;
  agents: string;
}

export const DEFAULT_SOURCE_DIRS: SourceDirs = { prompts: 'prompts', agents: 'agents' };

/** Every source folder, prompts first, then agents, then the Claude Code folders named: the order discovery walks them in. */
export function sourceDirList(dirs: SourceDirs): string[] {
  return namedDirs(dirs).map(([, dir]) => dir);
}

/** The named folders, each with its key, in `sourceDirList`'s order. */
function namedDirs(dirs: SourceDirs): Array<[string, string]> {
  const named: Array<[string, string]> = [['prompts', dirs.prompts], ['agents', dirs.agents]];
  for (const key of CLAUDE_CODE_DIR_KEYS) if (dirs[key] !== undefined) named.push([key, dirs[key]]);
  return named;
}

/** `dir` as a root-relative POSIX path (`./a/b/` → `a/b`), or why it cannot be a source folder. */
export function normaliseSourceDir(dir: string): { ok: true; dir: string } | { ok: false; problem: string } {
  if (path.isAbsolute(dir) || path.win32.isAbsolute(dir)) return { ok: false, problem: 'must be relative to the root' };
  const normal = path.posix.normalize(dir.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return { ok: false, problem: 'may not be the root itself' };
  if (normal === '..' || normal.startsWith('../')) return { ok: false, problem: 'must be inside the root' };
  return { ok: true, dir: normal };
}

/** Why two folders cannot both be sources (the same, or one inside the other), or null: a file has one role. */
export function sourceDirsProblem(dirs: SourceDirs): string | null {
  const named = namedDirs(dirs);
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [keyA, a] = named[i]!;
      const [keyB, b] = named[j]!;
      if (a === b) return `${keyA} and ${keyB} are the same folder (${a})`;
      if (b.startsWith(`${a}/`) || a.startsWith(`${b}/`)) return `one source folder holds the other (${a}, ${b})`;
    }
  }
  return null;
}

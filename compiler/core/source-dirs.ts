/**
 * Where a project keeps its sources: the prompt set (sections, profiles,
 * fragments) and the agents, as root-relative folders. `prompts` and
 * `agents` unless the config says otherwise — e.g. `.claude/agents`, where
 * Claude Code reads a project's agents.
 */
import path from 'node:path';

export interface SourceDirs {
  /** Root-relative POSIX path, no trailing `/`. */
  prompts: string;
  agents: string;
}

export const DEFAULT_SOURCE_DIRS: SourceDirs = { prompts: 'prompts', agents: 'agents' };

/** Both folders, prompts first: the order discovery walks them in. */
export function sourceDirList(dirs: SourceDirs): [string, string] {
  return [dirs.prompts, dirs.agents];
}

/** `dir` as a root-relative POSIX path (`./a/b/` → `a/b`), or why it cannot be a source folder. */
export function normaliseSourceDir(dir: string): { ok: true; dir: string } | { ok: false; problem: string } {
  if (path.isAbsolute(dir) || path.win32.isAbsolute(dir)) return { ok: false, problem: 'must be relative to the root' };
  const normal = path.posix.normalize(dir.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normal === '.' || normal === '') return { ok: false, problem: 'may not be the root itself' };
  if (normal === '..' || normal.startsWith('../')) return { ok: false, problem: 'must be inside the root' };
  return { ok: true, dir: normal };
}

/** Why two folders cannot both be sources (the same, or one inside the other), or null. */
export function sourceDirsProblem(dirs: SourceDirs): string | null {
  const { prompts, agents } = dirs;
  if (prompts === agents) return `prompts and agents are the same folder (${prompts})`;
  if (agents.startsWith(`${prompts}/`) || prompts.startsWith(`${agents}/`)) return `one source folder holds the other (${prompts}, ${agents})`;
  return null;
}

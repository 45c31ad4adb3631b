/**
 * Finds the sources of a project: every `.md` under its prompts and agents
 * folders (source-dirs.ts), sorted. A walk of its own rather than a glob library: the up-to-date check
 * of every build runs it, and loading a glob engine cost more than the walk.
 */
import fsSync, { type Dirent } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SOURCE_DIRS, sourceDirList, type SourceDirs } from '../core/source-dirs.js';

/**
 * Root-relative POSIX paths, sorted so every later stage sees one order.
 * Dot-files and dot-folders are left out; symlinked folders are followed
 * (what they lead to outside the root is refused when read), except into a
 * folder the walk is already inside. A FIFO, socket or device named `x.md`
 * is listed: the reader names it and refuses it without opening it.
 * `agentIgnore`: globs relative to the agents folder (config `agents.ignore`).
 * A source folder may itself be a dot-folder (`.claude/agents`); below it,
 * dot-files and dot-folders are still left out.
 */
export async function discoverSources(root: string, dirs: SourceDirs = DEFAULT_SOURCE_DIRS, agentIgnore: readonly string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const top of sourceDirList(dirs)) walk(path.join(root, top), top, found);
  const isSource = agentIgnore.length === 0 ? null : await sourcePathTest(dirs, agentIgnore);
  return (isSource ? found.filter(isSource) : found).sort();
}

/** Whether a root-relative path is a source, as `discoverSources` would find it (for watch events). */
export async function sourcePathTest(dirs: SourceDirs, agentIgnore: readonly string[]): Promise<(rel: string) => boolean> {
  // picomatch only for a project that ignores something.
  const ignored = agentIgnore.length === 0 ? null : (await import('picomatch')).default(agentIgnore.map((pattern) => `${dirs.agents}/${pattern}`), { dot: false });
  const tops = sourceDirList(dirs);
  return (rel) => {
    const top = tops.find((dir) => rel.startsWith(`${dir}/`));
    return top !== undefined && rel.endsWith('.md') && !rel.slice(top.length + 1).split('/').some((part) => part.startsWith('.')) && !(ignored?.(rel) ?? false);
  };
}

interface Folder {
  abs: string;
  rel: string;
  /** Its real path, to refuse walking into a folder the walk is already inside. */
  real: string;
  parent: Folder | null;
}

/** Depth first with a stack of its own, not recursion. */
function walk(dir: string, rel: string, found: string[]): void {
  let real: string;
  try {
    real = fsSync.realpathSync(dir);
  } catch {
    return;
  }
  const stack: Folder[] = [{ abs: dir, rel, real, parent: null }];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = fsSync.readdirSync(folder.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(folder.abs, entry.name);
      const childRel = `${folder.rel}/${entry.name}`;
      let isFolder = entry.isDirectory();
      let childReal = `${folder.real}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const target = followLink(abs);
        if (!target) continue; // leads nowhere, or round in a loop of links
        isFolder = target.isFolder;
        if (isFolder) {
          childReal = target.real;
          if (inside(folder, childReal)) continue;
        }
      }
      if (isFolder) stack.push({ abs, rel: childRel, real: childReal, parent: folder });
      else if (entry.name.endsWith('.md')) found.push(childRel);
    }
  }
}

/** Where a symlink leads, or null when it leads nowhere (missing, a loop of links, not ours to read). */
function followLink(abs: string): { isFolder: boolean; real: string } | null {
  try {
    const isFolder = fsSync.statSync(abs).isDirectory();
    return { isFolder, real: isFolder ? fsSync.realpathSync(abs) : abs };
  } catch {
    return null;
  }
}

function inside(folder: Folder | null, real: string): boolean {
  for (let f = folder; f; f = f.parent) if (f.real === real) return true;
  return false;
}

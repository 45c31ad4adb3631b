/** Finds the sources of a project: every `.md` under `prompts/` and `agents/`, sorted. */
import fsSync, { type Dirent } from 'node:fs';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';

export const SOURCE_GLOBS = ['prompts/**/*.md', 'agents/**/*.md'] as const;

/**
 * Root-relative POSIX paths, sorted so every later stage sees one order.
 * `agentIgnore`: globs relative to `agents/` (config `agents.ignore`) of files
 * there that are not agents.
 */
export async function discoverSources(root: string, agentIgnore: readonly string[] = []): Promise<string[]> {
  const ignore = agentIgnore.map((pattern) => `agents/${pattern}`);
  const found = await glob([...SOURCE_GLOBS], { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: true, fs: LIST_SPECIAL_FILES, ignore });
  return found.sort();
}

/** Whether a root-relative path is a source, as `discoverSources` would find it (for watch events). */
export function sourcePathTest(agentIgnore: readonly string[]): (rel: string) => boolean {
  const ignored = agentIgnore.length === 0 ? null : picomatch(agentIgnore.map((pattern) => `agents/${pattern}`), { dot: false });
  return (rel) => (rel.startsWith('prompts/') || rel.startsWith('agents/')) && rel.endsWith('.md') && !(ignored?.(rel) ?? false);
}

/**
 * The crawler under tinyglobby lists regular files and symlinks only: a
 * FIFO, socket or device named `x.md` would be left out without a word.
 * Shown to it as files, they reach the reader, which names them and refuses
 * them without opening them.
 */
const LIST_SPECIAL_FILES = {
  readdir: ((dir: string, options: object, callback: (error: NodeJS.ErrnoException | null, entries: Dirent[]) => void) =>
    fsSync.readdir(dir, { ...options, withFileTypes: true }, (error, entries) => {
      if (entries) for (let i = 0; i < entries.length; i++) if (isSpecial(entries[i]!)) entries[i] = asFile(entries[i]!);
      callback(error, entries);
    })) as unknown as typeof fsSync.readdir,
};

function isSpecial(entry: Dirent): boolean {
  return entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice();
}

function asFile(entry: Dirent): Dirent {
  return Object.assign(Object.create(entry) as Dirent, { isFile: () => true });
}

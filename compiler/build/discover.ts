/** Finds the sources of a project: every `.md` under `prompts/` and `agents/`, sorted. */
import fsSync, { type Dirent } from 'node:fs';
import { glob } from 'tinyglobby';

export const SOURCE_GLOBS = ['prompts/**/*.md', 'agents/**/*.md'] as const;

/** Root-relative POSIX paths, sorted so every later stage sees one order. */
export async function discoverSources(root: string): Promise<string[]> {
  const found = await glob([...SOURCE_GLOBS], { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: true, fs: LIST_SPECIAL_FILES });
  return found.sort();
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

/** Finds the sources of a project: every `.md` under `prompts/` and `agents/`, sorted. */
import { glob } from 'tinyglobby';

export const SOURCE_GLOBS = ['prompts/**/*.md', 'agents/**/*.md'] as const;

/** Root-relative POSIX paths, sorted so every later stage sees one order. */
export async function discoverSources(root: string): Promise<string[]> {
  const found = await glob([...SOURCE_GLOBS], { cwd: root, onlyFiles: true, dot: false, followSymbolicLinks: true });
  return found.sort();
}

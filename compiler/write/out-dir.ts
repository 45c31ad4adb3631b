/**
 * Where a bundle may be written. An output directory is refused when writing
 * there could touch what the tool does not own: the file system root, the
 * project root or a directory holding it, the sources, the home directory, a
 * file, or a non-empty directory that is not a bundle (unless forced; even
 * then nothing of it is deleted, see ownership.ts). Checked on real paths, so
 * a symlinked `dist` pointing at the sources is refused too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readOwnership, TOOL_DIR } from './ownership.js';
import { sourceDirList, type SourceDirs } from '../core/source-dirs.js';
import { isInside, realish } from '../core/paths.js';

/** An output directory that must not be written: a usage error (exit 2), never a diagnostic. */
export class OutDirError extends Error {
  override name = 'OutDirError';
}

export interface OutDirPlace {
  root: string;
  outDir: string;
  homeDir: string;
  sourceDirs: SourceDirs;
  /** Write into a non-empty directory that is not a bundle (nothing in it is deleted). */
  forceOut: boolean;
}

/** Throws `OutDirError` naming why `outDir` may not be written. */
export function assertWritableOutDir(place: OutDirPlace): void {
  const problem = outDirProblem(place);
  if (problem !== null) throw new OutDirError(`--out ${place.outDir}: ${problem}`);
}

function outDirProblem({ root, outDir, homeDir, sourceDirs, forceOut }: OutDirPlace): string | null {
  const out = realish(outDir);
  const realRoot = realish(root);
  if (out === path.parse(out).root) return 'is the file system root; name a directory of its own (default: dist)';
  if (out === realRoot) return 'is the project root: writing there would prune the sources; use a directory of its own (default: dist)';
  if (isInside(out, realRoot)) return 'holds the project root; use a directory of its own inside it (default: dist)';
  for (const sources of sourceDirList(sourceDirs)) {
    const dir = realish(path.join(root, sources));
    if (isInside(dir, out)) return `is inside the sources (${sources}/); the bundle must live apart from them`;
  }
  const home = realish(homeDir);
  if (isInside(out, home)) return 'is the home directory or holds it; use a directory of its own';
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(out, { throwIfNoEntry: false });
  } catch (error) {
    // A file on the way (ENOTDIR) is the system's plain answer; any other refusal (a name too long…) is the write's to report.
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') throw error;
    return null;
  }
  if (stat === undefined) return null;
  if (!stat.isDirectory()) return 'is not a directory';
  const names = fs.readdirSync(out);
  const entries = names.filter((name) => name !== TOOL_DIR);
  // The tool's own folder there: a build is writing it (a first one, with no manifest yet) or was; its lock decides.
  if (entries.length === 0 || forceOut || names.includes(TOOL_DIR) || readOwnership(out).isBundle) return null;
  return `is a non-empty directory that is not a prompt-build bundle (it holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); ` +
    'name a new or empty directory, or pass --force-out to write into it (nothing already there is ever deleted)';
}

/**
 * Real paths of many files in few folders. realpath(3) reads every link
 * along a path, one `readlink` per component: a source in the benchmark's
 * trees costs nine calls, 13.5 µs, on this project's machine (a virtual
 * machine, where a system call costs microseconds), and a build resolves
 * every source. A resolver resolves each folder once
 * and each file with one `lstat`, which it hands over: a file that is not a
 * link is its folder's real path plus its name.
 *
 * A resolver is for one pass over the files (a build's load, a stamp):
 * a folder swapped for a link after it was resolved is seen by the next
 * pass, as a file changed after it was read is seen by the next build.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ResolvedPath {
  real: string;
  /** `lstat` of `real`: never a symbolic link. */
  stat: fs.Stats;
}

/** Throws as `realpathSync` does when the path does not resolve (missing, unreadable, a loop). */
export type RealPathResolver = (file: string) => ResolvedPath;

export function realPathResolver(): RealPathResolver {
  const folders = new Map<string, string>();
  return (file) => {
    const folder = path.dirname(file);
    let realFolder = folders.get(folder);
    if (realFolder === undefined) {
      realFolder = fs.realpathSync.native(folder);
      folders.set(folder, realFolder);
    }
    const candidate = path.join(realFolder, path.basename(file));
    const stat = fs.lstatSync(candidate);
    if (!stat.isSymbolicLink()) return { real: candidate, stat };
    const real = fs.realpathSync.native(file);
    return { real, stat: fs.lstatSync(real) };
  };
}

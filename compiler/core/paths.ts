/** Judging paths against a folder, one way for every stage that confines a file to the project. */
import fs from 'node:fs';
import path from 'node:path';

/** `file` is `root` or below it, as written (no symlink resolved). */
export function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!(rel === '..' || rel.startsWith(`..${path.sep}`)) && !path.isAbsolute(rel));
}

/** The real path of `p`, or of its deepest existing ancestor joined with the rest: a path that does not exist yet resolves too. */
export function realish(p: string): string {
  const abs = path.resolve(p);
  try {
    return fs.realpathSync.native(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(realish(parent), path.basename(abs));
  }
}

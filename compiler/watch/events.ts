/**
 * From file-system events to compiler changes. The watcher sees the whole
 * project root, since an include may reach any text file in it; only files
 * that can be a source or an include target become changes.
 */
import path from 'node:path';
import type { FileChange } from '../pipeline/compiler.js';
import { isInside } from '../core/paths.js';

const KINDS: Record<string, FileChange['kind']> = { add: 'add', change: 'change', unlink: 'unlink' };

/** Directories never read by a build: dependencies, VCS data, and what the build itself writes. */
const SKIPPED_NAMES: ReadonlySet<string> = new Set(['node_modules', '.git']);

/**
 * A chokidar event → a change, or null when it cannot affect a build: a
 * directory event (chokidar reports each file inside too), or a file no
 * include may name (editor swap and backup files among them).
 */
export function toFileChange(event: string, file: string, extensions: readonly string[]): FileChange | null {
  if (!extensions.includes(path.extname(file).toLowerCase())) return null;
  return toAnyFileChange(event, file);
}

/** A file's event as a change whatever its extension (a config file's); a directory event is none. */
export function toAnyFileChange(event: string, file: string): FileChange | null {
  const kind = KINDS[event];
  return kind ? { path: path.resolve(file), kind } : null;
}

/** chokidar's `ignored`: paths the watcher does not descend into. */
export function ignoredPaths(root: string, written: readonly string[]): (file: string) => boolean {
  return (file) => {
    if (written.some((dir) => isInside(dir, file))) return true;
    if (!isInside(root, file)) return false;
    return path.relative(root, file).split(path.sep).some((part) => SKIPPED_NAMES.has(part));
  };
}

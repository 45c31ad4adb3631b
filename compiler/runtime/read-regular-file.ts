/**
 * Reading a file someone else may have put there: a bundle checked out from
 * a pull request, a path given on the command line. Opening a FIFO blocks
 * until a writer comes, opening a device may act on it, and a symbolic link
 * reads whatever it points to (`/proc/self/environ`). So a file is checked
 * before it is opened (`lstat`: a regular file, within the size bound), then
 * opened non-blocking and, inside a bundle, without following a link, and
 * the open file is checked again (`fstat`: a regular file, the same device
 * and inode): a file swapped between the check and the open is refused, not
 * read. At most the checked size is read. Every reader of a bundle, the
 * runtime's loader and the CLI's commands alike, reads through here.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Why a file was not read, worded to follow its name: "dist/x.hbs is a symbolic link". */
export class FileRefused extends Error {
  override name = 'FileRefused';
  constructor(
    readonly kind: 'missing' | 'link' | 'not-a-file' | 'too-large' | 'swapped' | 'unreadable' | 'mismatch',
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * What a bundle's reader reads at most of one file: 256 times the default
 * expanded-size budget of a text (1 MiB), and room for the manifest of a
 * bundle of tens of thousands of files.
 */
export const MAX_BUNDLE_FILE_BYTES = 256 * 1024 * 1024;

const C = fs.constants;
const OPEN_FLAGS = C.O_RDONLY | (C.O_NONBLOCK ?? 0) | (C.O_NOCTTY ?? 0);

/**
 * A file named by the user (`--context`, `--cache-facts`, a manifest path):
 * a link the user wrote is followed, but only to a regular file.
 */
export function readRegularFileSync(file: string, maxBytes: number): Buffer {
  return readChecked(file, stat(file, fs.statSync), maxBytes, OPEN_FLAGS);
}

/**
 * A reader of the files inside one bundle directory. `dir` itself may be a
 * link (a package manager links packages); below it, no path component may
 * be one: `rel` is a bundle path (`dynamic/x.hbs`), each of its directories
 * is checked once per reader, and the file is opened with `O_NOFOLLOW`.
 */
export function bundleFileReader(dir: string): (rel: string, maxBytes?: number) => Buffer {
  const checkedDirs = new Set<string>();
  return (rel, maxBytes = MAX_BUNDLE_FILE_BYTES) => {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      if (checkedDirs.has(sub)) continue;
      const s = stat(path.join(dir, sub), fs.lstatSync);
      if (s.isSymbolicLink()) throw new FileRefused('link', `is inside ${sub}/, a symbolic link; a bundle's files are read only inside its own folders`);
      if (!s.isDirectory()) throw new FileRefused('not-a-file', `is inside ${sub}, which is ${fileType(s)}, not a folder`);
      checkedDirs.add(sub);
    }
    const file = path.join(dir, rel);
    return readChecked(file, stat(file, fs.lstatSync), maxBytes, OPEN_FLAGS | (C.O_NOFOLLOW ?? 0));
  };
}

/**
 * `bytes` when their sha256 is `hash` (the manifest's), so a file is used
 * only as the manifest describes it: a link that slipped past the checks, an
 * edited or half-copied file is refused before a byte of it is used.
 */
export function verified(bytes: Buffer, hash: string): Buffer {
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== hash) {
    throw new FileRefused('mismatch', `does not match the manifest (sha256 ${actual.slice(0, 12)}…, expected ${hash.slice(0, 12)}…; ${bytes.length} bytes)`);
  }
  return bytes;
}

function readChecked(file: string, before: fs.Stats, maxBytes: number, flags: number): Buffer {
  refuseUnlessRegular(before, maxBytes);
  let fd: number;
  try {
    fd = fs.openSync(file, flags);
  } catch (error) {
    // O_NOFOLLOW on a link that appeared after the lstat: ELOOP.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new FileRefused('link', LINK_REASON);
    throw refusal(error);
  }
  try {
    const after = fs.fstatSync(fd);
    if (after.dev !== before.dev || after.ino !== before.ino) throw new FileRefused('swapped', 'was replaced while it was being opened; read it again once nothing is writing it');
    refuseUnlessRegular(after, maxBytes);
    return readAtMost(fd, after.size);
  } catch (error) {
    throw error instanceof FileRefused ? error : refusal(error);
  } finally {
    fs.closeSync(fd);
  }
}

const LINK_REASON = "is a symbolic link; a bundle's files are read only as regular files";

function refuseUnlessRegular(s: fs.Stats, maxBytes: number): void {
  if (s.isSymbolicLink()) throw new FileRefused('link', LINK_REASON);
  if (!s.isFile()) throw new FileRefused('not-a-file', `is ${fileType(s)}; only regular files are read`);
  if (s.size > maxBytes) throw new FileRefused('too-large', `is ${s.size} bytes, over the ${maxBytes}-byte limit`);
}

/** The first `size` bytes: a file that grows while it is read does not grow the read. */
export function readAtMost(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let filled = 0;
  while (filled < size) {
    const n = fs.readSync(fd, bytes, filled, size - filled, filled);
    if (n === 0) break;
    filled += n;
  }
  return filled === size ? bytes : bytes.subarray(0, filled);
}

function stat(file: string, how: (file: string) => fs.Stats): fs.Stats {
  try {
    return how(file);
  } catch (error) {
    throw refusal(error);
  }
}

function refusal(error: unknown): FileRefused {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileRefused('missing', 'is missing');
  if (code === 'EISDIR') return new FileRefused('not-a-file', 'is a directory; only regular files are read');
  return new FileRefused('unreadable', `cannot be read (${code ?? String(error)})`);
}

/** What a file is, for a message ("is a FIFO (named pipe)"): the sources, the bundle readers and the lock all say it so. */
export function fileType(s: fs.Stats): string {
  if (s.isSymbolicLink()) return 'a symlink';
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFile()) return 'a file';
  return 'not a regular file';
}

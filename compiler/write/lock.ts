/**
 * One writer per output directory. A build takes `.prompt-build/lock` in the
 * directory (created exclusively, holding its pid and host) before it touches
 * anything there, and journals in the same file every path its write may
 * create or remove. The lock of a process that died is stale: the next build
 * takes it over and inherits its journal, so whatever an interrupted write
 * left behind is known to be the tool's and is cleaned up.
 *
 * A live lock is waited for, a bounded time; then the build fails with a
 * message naming the holder. The holder's line is written when the lock is
 * created, and the journal is appended after it, a line a path, so a crash
 * never leaves a lock file without its holder's pid; a last line a crash cut
 * short is not read, since none of its paths had been touched yet. Appended,
 * not replaced by rename: ext4 writes a file replaced by rename back at once,
 * and removing it on release then waits for that write behind the bundle's
 * megabytes (about 9 ms a rebuild on this project's VM).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileType } from '../runtime/read-regular-file.js';
import { LOCK_FILE, TOOL_DIR } from './ownership.js';

export interface OutDirLock {
  /** Paths the journal of a dead holder listed: the tool's own, though no manifest may name them. */
  readonly inherited: readonly string[];
  /** Records, before any of it happens, more bundle paths this write may create or remove (those recorded before stay). */
  journal(paths: readonly string[]): void;
  /** Gives the lock up; the journal goes with it. */
  release(): void;
}

export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
}

/**
 * The tool's folder or a file in it is not what the tool makes there: a
 * symlink (a write through it would land outside the out dir), a FIFO (its
 * read would wait forever), a device, a folder at a file's name. Refused,
 * never written or read through; the writer reports it as a refused write.
 */
export class StateFolderError extends Error {
  override name = 'StateFolderError';
  readonly code = 'ENOTDIR';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** Far larger than any journal: a line per bundle path. */
const MAX_LOCK_BYTES = 64 * 1024 * 1024;
const C = fs.constants;

export interface LockOptions {
  /** How long to wait for another build's lock, in ms. */
  timeoutMs: number;
}

const BREAKER = `${LOCK_FILE}.break`;

export async function acquireLock(outDir: string, { timeoutMs }: LockOptions): Promise<OutDirLock> {
  const file = path.join(outDir, LOCK_FILE);
  makeToolDir(path.join(outDir, TOOL_DIR));
  const header = `${process.pid} ${os.hostname()}\n`;
  const deadline = Date.now() + timeoutMs;
  let inherited: string[] = [];
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    if (tryCreate(file, header)) return held(file, header, inherited);
    const holder = readHolder(file);
    if (holder !== null && isDead(holder)) {
      const taken = breakStale(outDir, file, holder);
      if (taken !== null) inherited = [...inherited, ...taken];
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
      throw new LockTimeoutError(
        `${file} is held by ${who}: another build is writing this directory (waited ${Math.round(timeoutMs / 1000)} s); ` +
          'if no build is running, remove the lock file',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function held(file: string, header: string, inherited: readonly string[]): OutDirLock {
  let released = false;
  return {
    inherited,
    journal(paths) {
      if (paths.length === 0) return;
      // Not created if missing: a lock removed while held is lost, not to be made again without its holder's line.
      const fd = openForAppend(file);
      try {
        fs.writeFileSync(fd, paths.join('\n') + '\n');
      } finally {
        fs.closeSync(fd);
      }
    },
    release() {
      if (released) return;
      released = true;
      // Only our own: a lock broken as stale by mistake and taken by another build stays theirs.
      let ours = false;
      try {
        ours = readHolder(file)?.text.startsWith(header) === true;
      } catch {
        // Replaced by something else meanwhile: not ours to remove.
      }
      if (ours) fs.rmSync(file, { force: true });
    },
  };
}

/** The tool's folder, made if missing; anything but a real directory at its name is refused. */
function makeToolDir(dir: string): void {
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) {
    throw new StateFolderError(dir, `${dir} is ${fileType(stat)}, not the tool's own folder: the lock and journal are written only in a real directory inside the out dir; remove it`);
  }
}

function openForAppend(file: string): number {
  try {
    // Not through a symlink: whatever replaced the lock is not the tool's to write.
    return fs.openSync(file, C.O_WRONLY | C.O_APPEND | (C.O_NOFOLLOW ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new StateFolderError(file, `${file} is a symlink, not this build's lock; another process changed the out dir's state`);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // Shaped as the system's error, so the writer reports it as any refused write, with this reason.
    throw Object.assign(new Error('ENOENT: removed while this build held it; another build may be writing here'), {
      code: 'ENOENT',
      path: file,
    });
  }
}

function tryCreate(file: string, content: string): boolean {
  try {
    fs.writeFileSync(file, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

interface Holder {
  pid: number;
  host: string;
  /** The lock file's whole text, to see that it did not change while it was judged. */
  text: string;
}

function readHolder(file: string): Holder | null {
  const text = readLockText(file);
  if (text === null) return null; // released meanwhile: the next try creates it
  const match = /^(\d+) (\S+)\n/.exec(text);
  return match ? { pid: Number(match[1]), host: match[2]!, text } : null;
}

/**
 * A lock file's text, or null when there is none. Only a regular file is
 * read, opened without following a link and without blocking, and at most
 * `MAX_LOCK_BYTES`: a FIFO at the lock's name would hang every build.
 */
function readLockText(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, C.O_RDONLY | (C.O_NONBLOCK ?? 0) | (C.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw new StateFolderError(file, `${file} is a symlink, not a lock the tool wrote; remove it`);
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new StateFolderError(file, `${file} is ${fileType(stat)}, not a lock the tool wrote; remove it`);
    if (stat.size > MAX_LOCK_BYTES) throw new StateFolderError(file, `${file} is ${stat.size} bytes, larger than any lock the tool writes; remove it`);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** Only a process of this host can be seen to be gone; one elsewhere (a shared disk) is waited for. */
function isDead(holder: Holder): boolean {
  if (holder.host !== os.hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes a stale lock and returns its journal, or null when another process
 * got there first. The check and the removal happen under a second, short
 * lock, so two builds that both find the lock stale cannot remove a fresh one.
 */
function breakStale(outDir: string, file: string, holder: Holder): string[] | null {
  const breaker = path.join(outDir, BREAKER);
  if (!tryCreate(breaker, `${process.pid} ${os.hostname()}\n`)) {
    const other = readHolder(breaker);
    // A breaker that died within its few statements: nobody else will remove it.
    if (other !== null && isDead(other)) fs.rmSync(breaker, { force: true });
    return null;
  }
  try {
    if (readHolder(file)?.text !== holder.text) return null;
    fs.rmSync(file, { force: true });
    // The holder's line first; after the last newline, nothing or a line cut short.
    return holder.text.split('\n').slice(1, -1).filter((line) => line !== '');
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/**
 * The commit files (`bundle.mjs`, `manifest.json`): written whole to a
 * temporary file beside their place, then renamed into it by writeBundle,
 * so readers see the old file or the new one, never part of one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { BundleFiles, type Piece } from '../bundle/pieces.js';
import { fileHoldsSync } from './disk.js';

/**
 * Writes the new content of a commit file to a temporary file beside it, to
 * be renamed into place once the artifacts are written; returns its path, or
 * null when the file needs no writing (when still there, see `writeBundle`):
 * unchanged since this process last wrote it, or found holding these bytes.
 */
export async function prepareCommit(outDir: string, rel: string, files: ReadonlyMap<string, string>, previous?: ReadonlyMap<string, string>): Promise<string | null> {
  if (previous?.has(rel) && sameContent(previous, files, rel)) return null;
  const file = path.join(outDir, rel);
  const chunks = bytesOf(files, rel);
  if (!previous?.has(rel) && fileHoldsSync(file, chunks)) return null;
  return writeTemporary(file, chunks);
}

/**
 * Whether `previous` held what `files` holds at commit file `rel`. Files
 * generated in pieces are compared piece by piece: comparing two equally long
 * ropes as strings would flatten both, copying tens of megabytes on a large bundle.
 */
function sameContent(previous: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>, rel: string): boolean {
  const before = piecesOf(previous, rel);
  const now = piecesOf(files, rel);
  if (before && now) return before.length === now.length && before.every((piece, i) => piece === now[i] || piece.text === now[i]!.text);
  return previous.get(rel) === files.get(rel);
}

function piecesOf(files: ReadonlyMap<string, string>, rel: string): readonly Piece[] | undefined {
  return files instanceof BundleFiles ? files.pieces(rel) : undefined;
}

/** The UTF-8 bytes of a file, in the pieces' own (cached) buffers when it has pieces. */
export function bytesOf(files: ReadonlyMap<string, string>, rel: string): readonly Buffer[] {
  return piecesOf(files, rel)?.map((piece) => piece.bytes) ?? [Buffer.from(files.get(rel)!)];
}

export function temporaryName(rel: string): string {
  return `${rel}.${process.pid}.tmp`;
}

/** Written whole beside `file`, for a rename into place: readers see the old file or the new one, never part of one. */
export async function writeTemporary(file: string, chunks: readonly Buffer[]): Promise<string> {
  const tmp = temporaryName(file);
  // Journaled as the tool's: whatever an earlier run left at this name goes, and is never written through.
  await fs.rm(tmp, { force: true });
  const handle = await fs.open(tmp, 'wx');
  try {
    await writeAll(handle, chunks);
  } catch (error) {
    // A FileHandle's errors name no path: the file the bundle needs is named instead.
    if (typeof (error as NodeJS.ErrnoException).code === 'string') (error as NodeJS.ErrnoException).path ??= file;
    throw error;
  } finally {
    await handle.close();
  }
  return tmp;
}

/**
 * Every byte of `chunks`, however many calls it takes: a write may take
 * fewer bytes than asked (the disk filling up, a file-size limit), and the
 * next call then either goes on or fails with the system's reason (ENOSPC,
 * EFBIG…), which the writer reports like any refused write.
 */
export async function writeAll(handle: { writev(buffers: Buffer[], position?: number): Promise<{ bytesWritten: number }> }, chunks: readonly Buffer[]): Promise<void> {
  let pending = chunks.filter((chunk) => chunk.length > 0);
  let position = 0;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending, position);
    if (bytesWritten <= 0) throw Object.assign(new Error('EIO: the system took none of the bytes, write'), { code: 'EIO' });
    position += bytesWritten;
    pending = rest(pending, bytesWritten);
  }
}

/** `chunks` without their first `n` bytes. */
function rest(chunks: readonly Buffer[], n: number): Buffer[] {
  const out: Buffer[] = [];
  let skip = n;
  for (const chunk of chunks) {
    if (skip >= chunk.length) skip -= chunk.length;
    else {
      out.push(skip === 0 ? chunk : chunk.subarray(skip));
      skip = 0;
    }
  }
  return out;
}

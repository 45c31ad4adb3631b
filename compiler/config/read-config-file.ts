/**
 * Reading a file the config names (the config file itself, a `cacheFacts`
 * JSON file) the way sources are read: a regular file (never a FIFO or a
 * device: `--config /dev/zero` would grow without end), within a size bound,
 * UTF-8 text without NUL bytes. A file found or named by the project's own
 * files must also be inside the root, through any symlink: a checked-in
 * config is as much a stranger's as the sources. A path the user gave on the
 * command line may be anywhere. A refusal says what the file is, never what
 * it holds.
 */
import fs from 'node:fs';
import { readTextFileSync } from '../markdown/source.js';
import { describeTextProblem } from '../markdown/text-check.js';
import { isInside } from '../core/paths.js';

/** Far above any config or facts file a person writes. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

export type ConfigFileRead = { ok: true; text: string } | { ok: false; missing: boolean; message: string };

/**
 * `file` (absolute) as text. `root`: the project root the file must stay
 * inside, or null for a path given on the command line. `shown` names the
 * file in messages.
 */
export function readConfigNamedFile(file: string, root: string | null, shown: string, maxBytes = MAX_CONFIG_FILE_BYTES): ConfigFileRead {
  const refused = (message: string): ConfigFileRead => ({ ok: false, missing: false, message: `${shown} ${message}` });
  if (root !== null && !isInside(root, file)) return refused('is outside the project root; a file the config names must be in the project');
  let real: string;
  try {
    real = fs.realpathSync.native(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, missing: true, message: `no such file ${shown}` };
    return refused(`cannot be read (${code ?? 'error'})`);
  }
  if (root !== null && !isInside(realOrSelf(root), real)) return refused('leads outside the project root through a symlink');
  const read = readTextFileSync(real, maxBytes);
  if (read.ok) return { ok: true, text: read.bytes.toString('utf8').replace(/^\uFEFF/, '') };
  const { failure } = read;
  switch (failure.kind) {
    case 'missing':
      return { ok: false, missing: true, message: `no such file ${shown}` };
    case 'not-a-file':
      return refused(`is ${failure.what}, not a regular file`);
    case 'too-large':
      return refused(`is ${failure.bytes} bytes, over the ${maxBytes}-byte limit`);
    case 'text':
      return refused(describeTextProblem(failure.problem));
    case 'outside-root':
      return refused('leads outside the project root through a symlink');
    case 'unreadable':
      return refused(`cannot be read: ${failure.message}`);
  }
}

function realOrSelf(dir: string): string {
  try {
    return fs.realpathSync.native(dir);
  } catch {
    return dir;
  }
}

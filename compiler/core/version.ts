import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tool's version, from its package.json (one level above `compiler/` and `lib/`; this file is in `core/`, or bundled in `lib/bin/`). */
export const TOOL_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const FINGERPRINT_NAME = 'fingerprint.json';
/** Written beside the compiled `version.js`, and beside the bundled command, by `npm run build:tool` (`writeFingerprint`). */
const FINGERPRINT_FILE = path.join(HERE, FINGERPRINT_NAME);

/**
 * The version plus a hash of the tool's own code. Persistent caches are
 * keyed by it: a rebuilt tool with an unchanged version number must not
 * reuse results an older build of it produced. The compiled tool reads the
 * hash `build:tool` wrote (listing and hashing its files cost a no-change
 * build a good part of its time); run from source, as the tests do, it hashes
 * the names, sizes and modification times of the source files.
 */
export const TOOL_FINGERPRINT = `${TOOL_VERSION}+${writtenFingerprint() ?? statHash(path.dirname(HERE))}`;

function writtenFingerprint(): string | null {
  try {
    return (JSON.parse(readFileSync(FINGERPRINT_FILE, 'utf8')) as { code: string }).code;
  } catch {
    return null;
  }
}

/** For `build:tool`: the hash of the compiled code's contents, written where `TOOL_FINGERPRINT` reads it. */
export function writeFingerprint(): void {
  const dir = path.dirname(HERE);
  const hash = createHash('sha256');
  for (const file of codeFiles(dir)) hash.update(`${file}\0`).update(readFileSync(path.join(dir, file))).update('\0');
  writeFileSync(FINGERPRINT_FILE, `${JSON.stringify({ code: hash.digest('hex').slice(0, 12) })}\n`);
}

function statHash(dir: string): string {
  const hash = createHash('sha256');
  for (const file of codeFiles(dir)) {
    const { size, mtimeMs } = statSync(path.join(dir, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 12);
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
}

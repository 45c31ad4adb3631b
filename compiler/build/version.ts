import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tool's version, from its package.json (one level above both `compiler/` and `lib/`; this file is in `build/`). */
export const TOOL_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/**
 * The version plus a hash of the tool's own code files — their names, sizes
 * and modification times, which every rebuild of the tool changes. Persistent
 * caches are keyed by it: a rebuilt tool with an unchanged version number
 * must not reuse results an older build of it produced. (Stat, not content:
 * reading all of its code cost a no-change build a third of its time.)
 */
export const TOOL_FINGERPRINT = `${TOOL_VERSION}+${codeHash(path.dirname(path.dirname(fileURLToPath(import.meta.url))))}`;

function codeHash(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
  for (const file of files) {
    const { size, mtimeMs } = statSync(path.join(dir, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('hex').slice(0, 12);
}

/**
 * Which files of an output directory belong to prompt-build. Only these may
 * ever be deleted or replaced: a file the tool cannot show it wrote is left
 * alone, whatever its name. Proof of ownership is
 *
 * - the bundle's own `manifest.json` (a prompt-build manifest, by its `tool`
 *   field): it and `bundle.mjs`, and every artifact it names;
 * - the journal of an interrupted write (see lock.ts): every path that write
 *   was about to create or remove, so that the next build converges.
 *
 * Paths from either are trusted only when they are plain bundle-relative
 * paths: a crafted manifest cannot name `../../somewhere`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isBundlePath } from '../runtime/bundle-path.js';

/** Written last, in this order: the manifest is the commit point. */
export const COMMIT_FILES = ['bundle.mjs', 'manifest.json'] as const;

/**
 * The tool's own folder in an output directory: it holds the lock that a
 * build takes while it writes, with the journal of what that write touches
 * (lock.ts). A folder of its own, so that taking and giving up the lock
 * never changes the bundle directory's own modification time, which watch
 * mode reads to know that nobody else changed the bundle.
 */
export const TOOL_DIR = '.prompt-build';

/** The lock file, relative to the output directory. */
export const LOCK_FILE = `${TOOL_DIR}/lock`;

export interface Ownership {
  /** The directory holds a prompt-build manifest (it is a bundle). */
  readonly isBundle: boolean;
  /** Bundle-relative POSIX paths the tool may delete or replace. */
  readonly owned: ReadonlySet<string>;
}

/** Reads the directory's manifest; `journal` adds what an interrupted write recorded. */
export function readOwnership(outDir: string, journal: readonly string[] = []): Ownership {
  const owned = new Set<string>();
  for (const rel of journal) if (isBundlePath(rel)) owned.add(rel);
  const manifest = readManifestJson(path.join(outDir, 'manifest.json'));
  if (manifest === null) return { isBundle: false, owned };
  for (const rel of COMMIT_FILES) owned.add(rel);
  for (const rel of namedFiles(manifest)) if (isBundlePath(rel)) owned.add(rel);
  return { isBundle: true, owned };
}

/** Every artifact a manifest names: section texts, thunks, templates, Python modules, agent prompts, Claude Code texts, source maps. */
function namedFiles(manifest: Record<string, unknown>): string[] {
  const out: string[] = [];
  const take = (entry: unknown): void => {
    if (entry === null || typeof entry !== 'object') return;
    for (const key of ['file', 'map', 'template', 'python'] as const) {
      const value = (entry as Record<string, unknown>)[key];
      if (typeof value === 'string') out.push(value);
    }
  };
  for (const profile of valuesOf(manifest.profiles)) {
    const sections = (profile as { sections?: unknown } | null)?.sections;
    if (Array.isArray(sections)) sections.forEach(take);
  }
  valuesOf(manifest.agents).forEach(take);
  const claude = manifest.claudeCode as Record<string, unknown> | null | undefined;
  for (const kind of ['skills', 'commands', 'outputStyles', 'rules'] as const) {
    for (const entry of valuesOf(claude?.[kind])) {
      take(entry);
      valuesOf((entry as { files?: unknown } | null)?.files).forEach(take);
    }
  }
  return out;
}

function valuesOf(record: unknown): unknown[] {
  return record !== null && typeof record === 'object' ? Object.values(record) : [];
}

/** Far above any manifest the tool writes. */
const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;

/** A prompt-build manifest, or null: missing, unreadable, not JSON, or somebody else's `manifest.json`. */
function readManifestJson(file: string): Record<string, unknown> | null {
  let value: unknown;
  let fd: number | null = null;
  try {
    // Only a regular file is read, and judged once open (no link followed, no wait): a FIFO named
    // manifest.json, or one swapped in after a look, must not hang the build.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES) return null;
    value = JSON.parse(fs.readFileSync(fd, 'utf8'));
  } catch {
    return null;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const tool = (value as { tool?: { name?: unknown } }).tool;
  return tool?.name === 'prompt-build' ? (value as Record<string, unknown>) : null;
}

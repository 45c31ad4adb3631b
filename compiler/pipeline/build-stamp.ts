/**
 * "Nothing changed" in one pass over the sources: the last successful build
 * leaves a stamp (every input file's hash, where each symlink on an include
 * path led, the options, the tool version, and the size, time and inode of
 * every bundle file) beside the parse cache. When every input hashes the
 * same, every link leads where it led, and `dist/` is still what that build
 * wrote, the build is done without parsing, compiling or writing anything.
 *
 * The stamp is only a shortcut: any doubt (missing, unreadable, another
 * version, a file added or gone, a link retargeted, a dist file touched)
 * means a full build. Two calls: `reuseIfUnchanged` before a build,
 * `prepareStamp` before one is written, recorded once it is.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions } from '../core/options.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { sha256, stableStringify } from '../core/hash.js';
import { realPathResolver, type RealPathResolver } from '../core/real-paths.js';
import { TOOL_FINGERPRINT } from '../core/version.js';
import { factsOutdated } from '../cache-facts/facts-age.js';
import type { Manifest } from '../runtime/manifest.js';
import { listFilesSync } from '../write/disk.js';
import { discoverSources } from './discover.js';

const FILE = 'build-stamp.json';

export interface BuildStamp {
  key: string;
  /** Absolute path → sha256 of every file the build read. */
  inputs: Record<string, string>;
  /** Absolute path an include went through that is a symlink or missing → its real path then (null: missing). */
  links: Record<string, string | null>;
  manifestHash: string;
  /** Bundle-relative path → `size:mtimeNs:inode` of each file of the bundle as written, so a changed byte is noticed. */
  files: Record<string, string>;
  /** Warnings of that build, reported again when it is reused. */
  diagnostics: Diagnostic[];
}

/** What the last build left, when the sources and `dist/` are exactly as it left them: its manifest and its warnings. */
export interface Unchanged {
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

/** What a build just written leaves for the next one to check. */
export interface WrittenBuild {
  manifest: Manifest;
  /** The bundle's files as written: path → content. */
  files: ReadonlyMap<string, string>;
  /** Absolute paths the build's includes went through: a retargeted link among them is a change. */
  watched: Iterable<string>;
  diagnostics: Diagnostic[];
}

/**
 * The last build, when nothing changed since: every input hashes the same,
 * no file was added or removed, every link leads where it led, and `dist/`
 * is what that build wrote. Blocking reads throughout: a few small files,
 * and nothing else to do meanwhile.
 */
export async function reuseIfUnchanged(options: BuildOptions): Promise<Unchanged | null> {
  const stamp = readStamp(options);
  if (!stamp) return null;
  const discovered = (await discoverSources(options.root, options.sourceDirs, options.agentIgnore)).map((rel) => path.join(options.root, rel));
  const manifestBytes = heldManifest(stamp, stampKey(options), discovered, options.outDir);
  if (manifestBytes === null) return null;
  return { manifest: JSON.parse(manifestBytes.toString('utf8')) as Manifest, diagnostics: stamp.diagnostics };
}

/** Records a build just written, for the next build's `reuseIfUnchanged`. Only a shortcut: a stamp that cannot be written costs a full build, no more. */
/**
 * The stamp of a build about to be written, all but the bundle's files on
 * disk: taken while its artifacts are still being written (the links'
 * targets are a look at every include path), then recorded, by the function
 * returned, once the bundle is in place.
 */
export function prepareStamp(options: BuildOptions, build: WrittenBuild): () => Promise<void> {
  const { manifest, files } = build;
  const key = stampKey(options);
  const inputs = Object.fromEntries(Object.entries(manifest.sources).map(([rel, s]) => [path.join(options.root, rel), s.hash]));
  const links = linkTargets(build.watched);
  const manifestHash = sha256(files.get('manifest.json')!);
  return () => writeStamp(options, { key, inputs, links, manifestHash, files: fileStats(options.outDir, [...files.keys()].sort()), diagnostics: build.diagnostics }).catch(() => {});
}

/**
 * What, besides the inputs, decides the output: the tool version and every option but the cache's place, the write's
 * manners, the plugins and the day — which decides only whether the cache facts are outdated: the day the built-in facts pass
 * 180 days, the last build's warnings (replayed by an up-to-date build) are no longer all there is to say.
 */
function stampKey(options: BuildOptions): string {
  const version = factsOutdated(options.today) ? `${TOOL_FINGERPRINT} cache-facts-outdated` : TOOL_FINGERPRINT;
  // The plugins decide no byte of the bundle: they run on every build, up to date or not (pipeline/lint-stage.ts).
  const { cacheDir: _cacheDir, parallelThreshold: _threshold, forceOut: _force, lockTimeoutMs: _lock, today: _today, plugins: _plugins, ...decisive } = options;
  return sha256(stableStringify({ version, ...decisive }));
}

function readStamp(options: BuildOptions): BuildStamp | null {
  if (options.cacheDir === null) return null;
  try {
    return JSON.parse(fsSync.readFileSync(path.join(options.cacheDir, FILE), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}

async function writeStamp(options: BuildOptions, stamp: BuildStamp): Promise<void> {
  if (options.cacheDir === null) return;
  await fs.mkdir(options.cacheDir, { recursive: true });
  const file = path.join(options.cacheDir, FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(stamp));
  await fs.rename(tmp, file);
}

/** Where each of `paths` leads now, for those that are not plain paths to themselves. */
function linkTargets(paths: Iterable<string>): Record<string, string | null> {
  const links: Record<string, string | null> = {};
  const resolve = realPathResolver();
  for (const p of paths) {
    const real = realOrNull(p, resolve);
    if (real !== p) links[p] = real;
  }
  return links;
}

/** The stat fingerprint of each bundle file. */
function fileStats(outDir: string, files: Iterable<string>): Record<string, string> {
  const stats: Record<string, string> = {};
  for (const rel of files) stats[rel] = statKey(path.join(outDir, rel));
  return stats;
}

/**
 * When the stamp still describes the sources and `dist/`, the bytes of the
 * bundle's manifest it checked (so they are read once); else null.
 * `discovered` are the absolute paths discovery found now; the stamp must
 * cover exactly those plus the includes it recorded, all with unchanged bytes.
 */
function heldManifest(stamp: BuildStamp, key: string, discovered: readonly string[], outDir: string): Buffer | null {
  if (stamp.key !== key || stamp.links === undefined || typeof stamp.files !== 'object' || Array.isArray(stamp.files)) return null;
  if (!discovered.every((f) => f in stamp.inputs)) return null;
  const resolve = realPathResolver();
  if (Object.entries(stamp.links).some(([p, real]) => realOrNull(p, resolve) !== real)) return null;
  // Blocking reads, one file after another, stopping at the first change: many small files, where each
  // asynchronous read's trips through the thread pool cost more than the read (see cli/read-bundle.ts).
  for (const [file, hash] of Object.entries(stamp.inputs)) if (hashFile(file) !== hash) return null;
  const manifest = regularFileBytes(path.join(outDir, 'manifest.json'));
  if (manifest === null || sha256(manifest) !== stamp.manifestHash) return null;
  const files = listFilesSync(outDir);
  if (files.length !== Object.keys(stamp.files).length) return null;
  return files.every((rel) => stamp.files[rel] !== undefined && stamp.files[rel] === statKey(path.join(outDir, rel))) ? manifest : null;
}

function statKey(file: string): string {
  const s = fsSync.statSync(file, { bigint: true, throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeNs}:${s.ino}` : 'missing';
}

function realOrNull(p: string, resolve: RealPathResolver): string | null {
  try {
    return resolve(p).real;
  } catch {
    return null;
  }
}

function hashFile(file: string): string | null {
  const bytes = regularFileBytes(file);
  return bytes === null ? null : sha256(bytes);
}

/** Null when missing or not a regular file: a source swapped for a FIFO must not hang the check (see source.ts). */
function regularFileBytes(file: string): Buffer | null {
  let fd: number;
  try {
    // Non-blocking, so that opening a FIFO returns at once; then its type decides.
    fd = fsSync.openSync(file, fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    return fsSync.fstatSync(fd).isFile() ? fsSync.readFileSync(fd) : null;
  } catch {
    return null;
  } finally {
    fsSync.closeSync(fd);
  }
}

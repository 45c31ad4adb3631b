/**
 * The watch loop, as thin wiring: a first full build, then
 *
 *   chokidar event → toFileChange → RebuildQueue (debounce, one build at a time)
 *     → compiler.build(changes) → writeBundle when there are no errors
 *     (or, when a config file is among the changes, a `config-changed` event instead)
 *
 * Every build reports through `onEvent`, and every step catches, so no error
 * stops the watcher: a failed build leaves the last good `dist/` in place
 * (nothing is written), and the next good save recovers.
 */
import path from 'node:path';
import { watch } from 'chokidar';
import { diffManifests, type BundleDiff } from '../bundle/bundle-diff.js';
import { createCompiler, type BuildResult, type Compiler, type FileChange } from '../pipeline/compiler.js';
import type { BuildOptions } from '../core/options.js';
import type { Manifest } from '../runtime/manifest.js';
import { bundleFileReader } from '../runtime/read-regular-file.js';
import { validateManifestForReaders } from '../runtime/validate-manifest.js';
import { assertWritableOutDir } from '../write/out-dir.js';
import { writeBundle, type WrittenBundle } from '../write/write-bundle.js';
import fsSync from 'node:fs';
import { sourceDirList, type SourceDirs } from '../core/source-dirs.js';
import { CONFIG_FILES } from '../config/find-config.js';
import { ignoredPaths, toAnyFileChange, toFileChange } from './events.js';
import { RebuildQueue } from './queue.js';

export type WatchEvent =
  /**
   * A build finished (`first` for the initial full build). `diff` compares
   * with the bundle `dist/` held before; null when there was none, or when the
   * build failed and wrote nothing. `changes`: the file events that triggered it (none for the first).
   */
  | { type: 'build'; first: boolean; result: BuildResult; diff: BundleDiff | null; ms: number; changes: readonly FileChange[] }
  /** The watcher is listening: changes from now on are built. */
  | { type: 'ready'; root: string }
  /** prompt-build itself failed (a bug, or an I/O error writing `dist/`); watching goes on. */
  | { type: 'failure'; error: unknown }
  /**
   * The root was deleted or moved, or holds neither `prompts/` nor `agents/`
   * any more: nothing was built or written, `dist/` keeps the last good build.
   * The session stops watching; the caller should end with an error.
   */
  | { type: 'root-gone'; root: string }
  /**
   * A config file in the root was added, changed or removed: the options this
   * session builds with may be out of date. Its caller reloads the config and
   * starts a new session (or says why it cannot).
   */
  | { type: 'config-changed'; file: string };

export interface WatchSession {
  /** Stops watching, waits for a running build to finish. */
  close(): Promise<void>;
}

/** Quiet time before a build starts: long enough for an editor's temp-file-and-rename save to settle. */
const DEBOUNCE_MS = 50;

export async function startWatch(buildOptions: Partial<BuildOptions> & { root: string }, onEvent: (event: WatchEvent) => void): Promise<WatchSession> {
  let compiler: Compiler | null = await createCompiler(buildOptions);
  const { root, outDir, cacheDir, extensions, sourceDirs } = compiler.options;
  assertWritableOutDir(compiler.options);
  let gone = false;
  let previous = await readManifest(outDir);
  /** What the last write left in `dist/`, so that the next one skips what it already holds. */
  let written: WrittenBundle | undefined;

  const build = async (changes?: FileChange[]): Promise<void> => {
    const started = performance.now();
    if (gone) return;
    try {
      if (!isProject(root, sourceDirs)) return rootGone();
      compiler ??= await createCompiler(buildOptions);
      const result = await compiler.build(changes);
      const bundle = result.bundle;
      if (bundle) {
        // Sources deleted while the build ran: an emptied tree must not replace the last good bundle.
        if (!isProject(root, sourceDirs)) return rootGone();
        written = (await writeBundle(outDir, bundle.files, written, compiler.options)).state;
      }
      const diff = bundle && previous ? diffManifests(previous, bundle.manifest) : null;
      if (bundle) previous = bundle.manifest;
      onEvent({ type: 'build', first: changes === undefined, result, diff, ms: performance.now() - started, changes: changes ?? [] });
    } catch (error) {
      // The compiler's state, and what a failed write left on disk, are unknown after a throw:
      // the next change starts a clean build, written without assumptions.
      void compiler?.close();
      compiler = null;
      written = undefined;
      onEvent({ type: 'failure', error });
    }
  };

  const rootGone = (): void => {
    gone = true;
    onEvent({ type: 'root-gone', root });
  };

  // The watcher starts with the first build, so that a save during it is not missed;
  // the queue holds such changes until the first build is done.
  const initial = build();
  const queue = new RebuildQueue(async (changes) => {
    await initial;
    // A config change goes through the queue too, so that its reader waits out the save's
    // burst (chokidar drops a file's second event within 5 ms: a truncate-then-write save
    // read at once is read empty) and never reloads while a build runs.
    const config = changes.find((change) => isConfigFile(root, change.path));
    if (config) return onEvent({ type: 'config-changed', file: config.path });
    await build(changes);
  }, DEBOUNCE_MS);
  const watcher = watch(root, { ignoreInitial: true, ignored: ignoredPaths(root, cacheDir ? [outDir, cacheDir] : [outDir]) });
  watcher.on('all', (event, file) => {
    const change = isConfigFile(root, file) ? toAnyFileChange(event, file) : toFileChange(event, file, extensions);
    if (change) queue.push(change);
  });
  watcher.on('error', (error) => onEvent({ type: 'failure', error }));
  await Promise.all([initial, new Promise<void>((resolve) => watcher.once('ready', () => resolve()))]);
  onEvent({ type: 'ready', root });

  return {
    async close() {
      await watcher.close();
      await queue.close();
      // Only an optimisation: a cache that cannot be saved now is rebuilt by the next build.
      await compiler?.saveCache().catch(() => {});
      await compiler?.close();
    },
  };
}

/** A config file the build would find in the root (`findConfigFile`'s names). */
function isConfigFile(root: string, file: string): boolean {
  return path.dirname(path.resolve(file)) === root && (CONFIG_FILES as readonly string[]).includes(path.basename(file));
}

/** The root still exists and holds sources: what `build` needs, checked again before each write. */
function isProject(root: string, dirs: SourceDirs): boolean {
  return sourceDirList(dirs).some((dir) => fsSync.statSync(path.join(root, dir), { throwIfNoEntry: false })?.isDirectory() === true);
}

/** The manifest `dist/` holds, to say what the first build changed; null when there is none that can be read (a FIFO or link there is none). */
async function readManifest(outDir: string): Promise<Manifest | null> {
  try {
    return validateManifestForReaders(JSON.parse(bundleFileReader(outDir)('manifest.json').toString('utf8')), path.join(outDir, 'manifest.json'));
  } catch {
    return null;
  }
}

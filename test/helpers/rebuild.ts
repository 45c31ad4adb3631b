/**
 * A refused build must leave the previous bundle whole: these helpers build a
 * good tree first, let the test break it, build again, and check that dist/
 * still loads as the first build wrote it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { buildProject, type BuildProjectOptions, type ProjectBuild } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { REPO, tempDir, writeTree } from './tree.js';

/** What the tests read of a build, in this process or another. */
export type BuildOutcome = Pick<ProjectBuild, 'ok' | 'written' | 'upToDate' | 'diagnostics'>;

export interface Rebuilt {
  root: string;
  result: BuildOutcome;
  /** `manifest.json` as the good build wrote it. */
  manifestBefore: string;
}

/**
 * Builds `files` (must succeed), applies `breakIt`, builds again. With
 * `apart`, the second build runs in a child process (the compiled `lib/`):
 * a build blocked in a system call (opening a FIFO) cannot be interrupted in
 * this one, so there a hang would stop the whole run instead of failing a test.
 */
export async function buildThenBreak(
  files: Record<string, string | Uint8Array>,
  breakIt: (root: string) => Promise<void>,
  options: Partial<BuildProjectOptions> & { apart?: boolean } = {},
): Promise<Rebuilt> {
  const { apart = false, ...buildOptions } = options;
  const root = await tempDir();
  await writeTree(root, files);
  const build = apart ? buildApart : buildProject;
  const buildAt = { root, cacheDir: null, ...buildOptions };
  // The good build is setup, made in this process (a child costs a second of loading) — unless the second build is
  // to find its stamp in a cache directory: the stamp's key holds the tool's fingerprint, which differs between lib/ and compiler/.
  const good = await (buildAt.cacheDir === null ? buildProject : build)(buildAt);
  expect(good.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const manifestBefore = await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8');
  await breakIt(root);
  return { root, result: await build(buildAt), manifestBefore };
}

/**
 * Builds in a child process (the compiled `lib/`), one at a time, over IPC: `{ id, options }` in, `{ id, outcome }`
 * or `{ id, error }` out. One child serves a worker's builds, so each costs the build, not a second of loading.
 */
const SERVER = `
const { buildProject } = await import(process.argv[1]);
process.on('disconnect', () => process.exit());
process.on('message', async ({ id, options }) => {
  try {
    const r = await buildProject(options);
    process.send({ id, outcome: { ok: r.ok, written: r.written, upToDate: r.upToDate, diagnostics: r.diagnostics } });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
`;

/** Far above what these small builds take (well under a second), below the test timeout: only a hang reaches it. */
const HANG = 20_000;

interface Server {
  child: ChildProcess;
  pending: Map<number, { resolve: (outcome: BuildOutcome) => void; reject: (error: Error) => void }>;
  stderr: string;
}

let server: Server | undefined;
let nextId = 0;
/** Builds run one after another: a request's hang timer runs from when the child starts on it. */
let queue: Promise<unknown> = Promise.resolve();

function startServer(): Server {
  const lib = pathToFileURL(path.join(REPO, 'lib/index.js')).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e', SERVER, lib], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  const started: Server = { child, pending: new Map(), stderr: '' };
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => void (started.stderr = (started.stderr + chunk).slice(-64 * 1024)));
  child.on('message', (message: { id: number; outcome?: BuildOutcome; error?: string }) => {
    const waiting = started.pending.get(message.id);
    started.pending.delete(message.id);
    if (message.error === undefined) waiting?.resolve(message.outcome!);
    else waiting?.reject(new Error(`the build failed: ${message.error}`));
  });
  child.on('exit', () => {
    if (server === started) server = undefined;
    for (const { reject } of started.pending.values()) reject(new Error(`the build failed: the child exited\n${started.stderr}`));
    started.pending.clear();
  });
  // Idle between builds, it must not keep this worker alive, nor outlive it.
  child.unref();
  child.channel?.unref();
  (child.stderr as unknown as { unref(): void }).unref();
  process.once('exit', () => child.kill('SIGKILL'));
  return started;
}

/** `buildProject` in a child process; rejects when the build does not end (the child is killed; the next build starts another). */
export function buildApart(options: BuildProjectOptions): Promise<BuildOutcome> {
  const run = queue.then(
    () =>
      new Promise<BuildOutcome>((resolve, reject) => {
        const current = (server ??= startServer());
        const id = nextId++;
        const timer = setTimeout(() => {
          current.pending.delete(id);
          current.child.kill('SIGKILL');
          reject(new Error(`the build hung (killed after ${HANG} ms)`));
        }, HANG);
        const settle = <T>(done: (value: T) => void) => (value: T) => {
          clearTimeout(timer);
          done(value);
        };
        current.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
        current.child.send({ id, options });
      }),
  );
  queue = run.catch(() => {});
  return run;
}

/** The build failed, wrote nothing, and dist/ is still the good bundle, loadable. */
export async function expectPreviousBundle({ root, result, manifestBefore }: Rebuilt): Promise<void> {
  expect(result.ok).toBe(false);
  expect(result.written).toBeNull();
  expect(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8')).toBe(manifestBefore);
  const bundle = await loadBundle(path.join(root, 'dist'));
  expect(bundle.manifest).toEqual(JSON.parse(manifestBefore));
}

/** Errors as `rule file:line:col`. */
export function errors(result: Pick<BuildOutcome, 'diagnostics'>): string[] {
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}

export function messageOf(result: Pick<BuildOutcome, 'diagnostics'>, rule: string): string {
  const found = result.diagnostics.find((d) => d.rule === rule);
  expect(found, `a ${rule} diagnostic`).toBeDefined();
  return found!.message;
}

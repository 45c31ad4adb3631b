/**
 * A refused build must leave the previous bundle whole: these helpers build a
 * good tree first, let the test break it, build again, and check that dist/
 * still loads as the first build wrote it.
 */
import { execFile } from 'node:child_process';
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
  // Both builds in one kind of process: the tool's fingerprint (part of the build stamp's key) differs between lib/ and compiler/.
  const build = apart ? buildApart : buildProject;
  const buildAt = { root, cacheDir: null, ...buildOptions };
  const good = await build(buildAt);
  expect(good.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const manifestBefore = await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8');
  await breakIt(root);
  return { root, result: await build(buildAt), manifestBefore };
}

const CHILD = `
const { buildProject } = await import(process.argv[1]);
const r = await buildProject(JSON.parse(process.argv[2]));
process.stdout.write(JSON.stringify({ ok: r.ok, written: r.written, upToDate: r.upToDate, diagnostics: r.diagnostics }));
`;

/** Far above what these small builds take (well under a second), below the test timeout: only a hang reaches it. */
const HANG = 20_000;

/** `buildProject` in a child process; rejects when the build does not end. */
export function buildApart(options: BuildProjectOptions): Promise<BuildOutcome> {
  const lib = pathToFileURL(path.join(REPO, 'lib/index.js')).href;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', CHILD, lib, JSON.stringify(options)],
      { timeout: HANG, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(error.killed ? `the build hung (killed after ${HANG} ms)` : `the build failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as BuildOutcome);
      },
    );
  });
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

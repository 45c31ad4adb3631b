/**
 * Drives `prompt-build watch` as users run it: a child process on a
 * temporary tree, its stderr read line by line. And the reference it is held
 * to: a clean build of a copy of the same tree.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { buildProject, formatHuman } from '../../compiler/index.js';
import { readTree, tempDir, CLI_BIN } from '../helpers/tree.js';

const BIN = CLI_BIN;

/** Status lines start with the local time; `lines` holds them without it, `raw` as printed. */
const TIME = /^\d\d:\d\d:\d\d /;

export class WatchProcess {
  readonly lines: string[] = [];
  readonly raw: string[] = [];
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private lastOutput = Date.now();

  /** `args` replace `--no-cache`, the default here. */
  constructor(root: string, args: string[] = ['--no-cache']) {
    this.child = spawn(process.execPath, [BIN, 'watch', '--root', root, '--no-color', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let partial = '';
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      this.raw.push(...parts);
      this.lines.push(...parts.map((line) => line.replace(TIME, '')));
      this.lastOutput = Date.now();
    });
    this.child.stdout!.resume();
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** The first line at or after index `from` matching `pattern`. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 15_000): Promise<string> {
    const found = await poll(() => this.lines.slice(from).find((l) => pattern.test(l)), timeoutMs);
    if (found === undefined) throw new Error(`no line matching ${pattern} after line ${from}; output:\n${this.lines.join('\n')}`);
    return found;
  }

  /** Resolves once nothing has been printed for `ms`. */
  async quiet(ms = 300): Promise<void> {
    await poll(() => Date.now() - this.lastOutput >= ms || undefined, 15_000);
  }

  /** Status lines of finished builds (good or failed) at or after `from`. */
  builds(from = 0): string[] {
    return this.lines.slice(from).filter((l) => /^(rebuilt in|built |✖ )/.test(l));
  }

  /** The exit code, once the process ends by itself. */
  exitCode(): Promise<number | null> {
    return this.exited;
  }

  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}

export interface CleanBuild {
  /** `dist/` of the clean build; null when it fails. */
  files: Map<string, Buffer> | null;
  /** Its diagnostics as `watch` prints them. */
  diagnostics: string[];
}

/** A clean build of a copy of `root` (its own `dist/` left out). */
export async function cleanBuild(root: string): Promise<CleanBuild> {
  const copy = await tempDir('pb-clean-');
  const dist = path.join(root, 'dist');
  await fs.cp(root, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== dist });
  const result = await buildProject({ root: copy, cacheDir: null });
  const files = result.ok ? await readTree(path.join(copy, 'dist')) : null;
  await fs.rm(copy, { recursive: true, force: true });
  return { files, diagnostics: result.diagnostics.map((d) => formatHuman(d)) };
}

/**
 * Waits until the watched `dist/` equals `expected` byte for byte and the
 * watcher has gone quiet, then asserts it (so a mismatch fails with a diff).
 */
export async function expectDist(root: string, expected: Map<string, Buffer>, watcher: WatchProcess): Promise<void> {
  // Read while the watcher may be writing: a temporary file listed can be renamed before it is read.
  const same = async () => equalTrees(await readTree(path.join(root, 'dist')).catch(() => new Map()), expected) || undefined;
  await poll(same, 10_000);
  await watcher.quiet();
  expect(asText(await readTree(path.join(root, 'dist')))).toEqual(asText(expected));
}

function equalTrees(a: Map<string, Buffer>, b: Map<string, Buffer>): boolean {
  return a.size === b.size && [...a].every(([file, bytes]) => b.get(file)?.equals(bytes) === true);
}

function asText(tree: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries([...tree].map(([file, bytes]) => [file, bytes.toString('utf8')]));
}

async function poll<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

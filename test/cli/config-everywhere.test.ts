/**
 * Every command that reads a bundle finds it, and judges it, as `build`
 * wrote it: the config's `out`, its `cacheFacts` and `models`, and the
 * `--cache-facts` flag — not `dist/` and the built-in table regardless.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

let root: string;
const env = () => ({ GIT_CEILING_DIRECTORIES: path.dirname(root), HOME: root });

beforeAll(async () => {
  root = await tempDir('pb-config-everywhere-');
  await writeTree(root, {
    'prompt-build.config.json': JSON.stringify({ out: 'build', models: ['claude-haiku-9-9'] }),
    'facts.json': JSON.stringify([{ provider: 'anthropic', family: 'Claude Haiku 9.9 (own row)', ids: ['claude-haiku-9-9'], minimumTokens: 2 }]),
    'prompts/sections/intro.md': 'Hello there, this is the static prefix.\n',
    'prompts/profiles/default.md': '---\nsections: [intro]\ncacheWarning: false\n---\n',
  });
  // Setup, by the CLI's own code in this process: the commands below, which find the bundle as build put it, run as users run them.
  const built = await runCliInProcess(['build', '--root', root, '--no-cache', '--cache-facts', path.join(root, 'facts.json')]);
  expect(built.code, built.stderr).toBe(0);
  await fs.access(path.join(root, 'build/manifest.json'));
});

describe('commands that read a bundle read the config as build does', () => {
  it("render finds the bundle in the config's out directory", async () => {
    const run = await runCli(['render', '--json', '--root', root, '--cwd', root], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { system: string[] }).system[0]).toBe('Hello there, this is the static prefix.');
  });

  it("report finds the bundle in the config's out directory and prices it with --cache-facts", async () => {
    const without = await runCli(['report', '--root', root, '--out-file', '-']);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).not.toContain('claude-haiku-9-9 caches prefixes of 2 tokens or more');
    const run = await runCli(['report', '--root', root, '--out-file', '-', '--cache-facts', path.join(root, 'facts.json')]);
    expect(run.code, run.stderr).toBe(0);
    // The project's own row: the built-in table knows no such model, so only it can give the minimum.
    expect(run.stdout).toContain('claude-haiku-9-9 caches prefixes of 2 tokens or more');
  });
});

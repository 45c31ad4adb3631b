/** `prompt-build inspect [bundle]` on a build of `test/fixtures/check-basic`. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../compiler/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { copyFixture, tempDir, writeTree } from '../helpers/tree.js';

let root: string;
let manifest: Manifest;

beforeAll(async () => {
  root = await copyFixture('check-basic');
  // The build is setup, made in this process: `inspect` is what runs as a user runs it.
  expect((await runCliInProcess(['build', '--root', root, '--no-cache'])).code).toBe(0);
  manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('prompt-build inspect', () => {
  it('lists each profile’s sections in order, with the boundary after the static ones', async () => {
    const run = await runCli(['inspect', '--root', root]);
    expect(run.code).toBe(0);
    const d = manifest.profiles.default!;
    const [intro, rules, env] = d.sections;
    const block = run.stdout.split('\n\n')[0]!.split('\n');
    expect(block).toEqual([
      'profile default — The full prompt.',
      '  #  section   kind     cache   bytes  tokens',
      `  1  intro     static           ${pad(intro!.bytes, 5)}  ${pad(intro!.tokens, 6)}`,
      `  2  rules     static           ${pad(rules!.bytes, 5)}  ${pad(rules!.tokens, 6)}`,
      `  ── boundary · static prefix: 2 sections, ~${d.staticTokens} tokens, hash ${d.staticPrefixHash.slice(0, 12)} ──`,
      `  3  env-info  dynamic  cached  ${pad(env!.bytes, 5)}  ${pad(env!.tokens, 6)}`,
    ]);
    expect(run.stdout).toContain('profile simple — A short standalone prompt.');
    expect(run.stdout).toMatch(/\nagents\n {2}name {4}tools {7}model {2}bytes {2}tokens\n {2}helper {2}Read, Grep/);
  });

  it('reads the bundle named on the command line, directory or manifest.json', async () => {
    const fromDir = await runCli(['inspect', path.join(root, 'dist')]);
    const fromFile = await runCli(['inspect', path.join(root, 'dist/manifest.json')]);
    const fromRoot = await runCli(['inspect', '--root', root]);
    expect(fromDir.stdout).toBe(fromRoot.stdout);
    expect(fromFile.stdout).toBe(fromRoot.stdout);
  });

  it('--json gives the same facts as data', async () => {
    const run = await runCli(['inspect', '--root', root, '--json']);
    expect(run.code).toBe(0);
    const data = JSON.parse(run.stdout);
    const d = manifest.profiles.default!;
    expect(data.profiles.map((p: { name: string }) => p.name)).toEqual(['default', 'simple']);
    expect(data.profiles[0]).toEqual({
      name: 'default',
      description: 'The full prompt.',
      boundaryIndex: 2,
      staticPrefixHash: d.staticPrefixHash,
      staticTokens: d.staticTokens,
      sections: d.sections.map((s) => ({
        name: s.name,
        kind: s.kind,
        ...(s.kind === 'dynamic' ? { cache: 'cached' } : {}),
        bytes: s.bytes,
        tokens: s.tokens,
        source: s.source,
      })),
    });
    expect(data.agents).toEqual([{ name: 'helper', description: 'A helper agent.', tools: ['Read', 'Grep'], bytes: 10, tokens: 3, source: 'agents/helper.md' }]);
  });

  it('exits 2 when there is no bundle', async () => {
    const run = await runCli(['inspect', '--root', root, '--out', 'nowhere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^no bundle at .*nowhere: give a bundle directory or its manifest.json/);
  });
});

describe('prompt-build inspect on an agents-only project with a long tools list', () => {
  it('fits each line in a terminal (the tools named that fit, then how many more), prints no empty cache table, and --json keeps every tool', async () => {
    const dir = await tempDir('pb-inspect-agents-');
    const tools = Array.from({ length: 90 }, (_, i) => `mcp__server${i}__tool_with_a_long_name`);
    await writeTree(dir, { 'agents/many.md': `---\nname: many\ndescription: uses many tools\ntools: ${tools.join(', ')}\n---\nYou use tools.\n` });
    expect((await runCliInProcess(['build', '--root', dir, '--no-cache'])).code).toBe(0);
    const run = await runCli(['inspect', '--root', dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(Math.max(...run.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(run.stdout).toMatch(/mcp__server0__tool_with_a_long_name, … \+89/);
    expect(run.stdout).not.toContain('cache · static prefix');
    const json = JSON.parse((await runCli(['inspect', '--root', dir, '--json'])).stdout) as { agents: { tools: string[] }[] };
    expect(json.agents[0]!.tools).toHaveLength(90);
  });
});

function pad(n: number, width: number): string {
  return n.toLocaleString('en-US').padStart(width);
}

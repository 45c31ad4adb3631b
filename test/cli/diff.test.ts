/**
 * `prompt-build diff OLD NEW` between two real builds of
 * `test/fixtures/diff-basic`: the old tree as it is, the new one with a
 * section moved from static to dynamic, one added, one removed with its
 * profile, a dynamic text edited, and agents changed and added.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffManifests, type BundleDiff, type Manifest } from '../../compiler/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { copyFixture, tempDir } from '../helpers/tree.js';

let root: string;
let oldDir: string;
let newDir: string;

beforeAll(async () => {
  root = await copyFixture('diff-basic');
  oldDir = path.join(root, 'old');
  newDir = path.join(root, 'new');
  await build(oldDir);
  const write = (rel: string, text: string) => fs.writeFile(path.join(root, rel), text);
  await write('prompts/sections/style.md', '---\nkind: dynamic\n---\nAnswer in short sentences.\n');
  await write('prompts/sections/env-info.md', '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\nPlatform: linux\n');
  await write('prompts/sections/language.md', '---\nkind: dynamic\noptional: [language]\n---\n{{#if language}}Answer in {{language}}.{{/if}}\n');
  await write('prompts/profiles/default.md', '---\ncacheWarning: false\nsections: [intro, style, env-info, language]\n---\n');
  await fs.rm(path.join(root, 'prompts/profiles/legacy.md'));
  await fs.rm(path.join(root, 'prompts/sections/legacy.md'));
  await write('agents/helper.md', '---\nname: helper\ndescription: A helper agent.\ntools: Read, Grep, Glob\n---\nYou help, briefly.\n');
  await write('agents/reviewer.md', '---\nname: reviewer\ndescription: Reviews changes.\n---\nYou review.\n');
  await build(newDir);
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The bundles compared are setup, built by the CLI's own code in this process: `diff` is what runs as a user runs it. */
async function build(out: string): Promise<void> {
  const run = await runCliInProcess(['build', '--root', root, '--out', out, '--no-cache']);
  expect(run.code, run.stderr).toBe(0);
}

async function manifest(dir: string): Promise<Manifest> {
  return JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

describe('prompt-build diff --json', () => {
  let diff: BundleDiff & { cacheBust: string[] };
  beforeAll(async () => {
    const run = await runCli(['diff', oldDir, newDir, '--json']);
    expect(run.code).toBe(0);
    diff = JSON.parse(run.stdout);
  });
  const section = (name: string) => diff.sections.find((s) => s.name === name);

  it('is what the library API gives, plus the profiles whose cache is busted', async () => {
    const api = diffManifests(await manifest(oldDir), await manifest(newDir));
    const { cacheBust, ...rest } = diff;
    expect(rest).toEqual(api);
    expect(cacheBust).toEqual(api.profiles.filter((p) => p.cacheBust).map((p) => p.name));
  });

  it('finds a section moved across the boundary, static → dynamic', () => {
    expect(section('style')).toMatchObject({ status: 'changed', moved: true, kind: { old: 'static', new: 'dynamic' }, cache: { old: null, new: 'cached' } });
  });

  it('gives byte and token deltas of a changed section', async () => {
    const [before, after] = [await manifest(oldDir), await manifest(newDir)];
    const old = before.profiles.default!.sections.find((s) => s.name === 'env-info')!;
    const now = after.profiles.default!.sections.find((s) => s.name === 'env-info')!;
    expect(now.bytes - old.bytes).toBe('Platform: linux\n'.length);
    expect(section('env-info')).toMatchObject({
      status: 'changed',
      moved: false,
      bytes: { old: old.bytes, new: now.bytes, delta: now.bytes - old.bytes },
      tokens: { old: old.tokens, new: now.tokens, delta: now.tokens - old.tokens },
    });
  });

  it('lists sections added and removed, and leaves unchanged ones out', () => {
    expect(section('language')).toMatchObject({ status: 'added', kind: { old: null, new: 'dynamic' }, bytes: { old: 0 } });
    expect(section('legacy')).toMatchObject({ status: 'removed', kind: { old: 'static', new: null }, bytes: { new: 0 } });
    expect(section('intro')).toBeUndefined();
    expect(diff.sections.map((s) => s.name)).toEqual(['env-info', 'language', 'legacy', 'style']);
  });

  it('says per profile whether the static prefix hash changed', async () => {
    const [before, after] = [await manifest(oldDir), await manifest(newDir)];
    const profile = (name: string) => diff.profiles.find((p) => p.name === name);
    expect(profile('default')).toMatchObject({
      status: 'changed',
      cacheBust: true,
      staticPrefixHash: { old: before.profiles.default!.staticPrefixHash, new: after.profiles.default!.staticPrefixHash },
      boundaryIndex: { old: 2, new: 1 },
      sectionsAdded: ['language'],
      sectionsRemoved: [],
    });
    expect(profile('simple')).toMatchObject({ status: 'unchanged', cacheBust: false });
    expect(profile('legacy')).toMatchObject({ status: 'removed', cacheBust: false, staticPrefixHash: { new: null } });
    expect(diff.cacheBust).toEqual(['default']);
  });

  it('lists agents added and changed, with what changed', () => {
    expect(diff.agents).toEqual([
      expect.objectContaining({ name: 'helper', status: 'changed', fields: ['prompt', 'tools'] }),
      expect.objectContaining({ name: 'reviewer', status: 'added', fields: [] }),
    ]);
  });
});

describe('prompt-build diff (Markdown)', () => {
  it('prints a pull-request comment and exits 0 even on a cache bust', async () => {
    const run = await runCli(['diff', oldDir, newDir, '--format', 'markdown']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('### prompt-build diff');
    expect(lines).toContain('**⚠ Static prefix changed — global prompt-cache bust:** `default`');
    expect(lines).toContain('Unchanged profiles: `simple`');
    expect(lines.find((l) => l.startsWith('| `default` |'))).toMatch(/^\| `default` \| changed \| ⚠ `[0-9a-f]{12}` → `[0-9a-f]{12}` \| .* \| 2 → 1 \| \+`language` \|$/);
    expect(lines.find((l) => l.startsWith('| `legacy` |'))).toMatch(/^\| `legacy` \| removed \| /);
    expect(lines.find((l) => l.startsWith('| `style` |'))).toMatch(/^\| `style` \| \*\*moved static → dynamic\*\* \| dynamic \| 27 \| \d+ \|$/); // tokens: the estimate's
    expect(lines.find((l) => l.startsWith('| `env-info` |'))).toMatch(/^\| `env-info` \| changed \| dynamic \| \d+ → \d+ \(\+16\) \| \d+ → \d+ \(\+4\) \|$/);
    expect(lines.find((l) => l.startsWith('| `language` |'))).toMatch(/^\| `language` \| added \| dynamic \| 0 → \d+ \(\+\d+\) \|/);
    expect(lines.find((l) => l.startsWith('| `helper` |'))).toMatch(/^\| `helper` \| changed \| `prompt`, `tools` \| /);
    expect(lines.find((l) => l.startsWith('| `reviewer` |'))).toMatch(/^\| `reviewer` \| added \| \| /); // remark-stringify writes an empty cell as `| |`, not `|  |`
  });

  it('says so when nothing changed, given manifest.json files', async () => {
    const run = await runCli(['diff', path.join(oldDir, 'manifest.json'), path.join(oldDir, 'manifest.json'), '--format', 'markdown']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('**Static prefixes unchanged** — the global prompt cache keeps hitting.');
    expect(run.stdout).toContain('No changes: both bundles hold the same prompts.');
  });
});

describe('diffManifests on consecutive builds (entries shared, as in watch mode)', () => {
  it('a section dropped from one profile but still in another is neither removed nor changed', async () => {
    const older = await manifest(oldDir);
    const dflt = older.profiles.default!;
    const newer: Manifest = { ...older, profiles: { ...older.profiles, default: { ...dflt, sections: dflt.sections.filter((s) => s.name !== 'intro') } } };
    expect(older.profiles.simple!.sections.map((s) => s.name)).toContain('intro');
    for (const [a, b, added, removed] of [
      [older, newer, [], ['intro']],
      [newer, older, ['intro'], []],
    ] as const) {
      const diff = diffManifests(a, b);
      expect(diff.sections).toEqual([]);
      expect(diff.profiles.find((p) => p.name === 'simple')).toMatchObject({ status: 'unchanged', sectionsAdded: [], sectionsRemoved: [] });
      expect(diff.profiles.find((p) => p.name === 'default')).toMatchObject({ status: 'changed', sectionsAdded: added, sectionsRemoved: removed });
    }
  });
});

describe('prompt-build diff, bad arguments', () => {
  it('exits 2 for a path that does not exist', async () => {
    const run = await runCli(['diff', oldDir, path.join(root, 'nowhere')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no bundle at');
  });

  it('exits 2 for a directory that is not a bundle, and for a manifest of another schema', async () => {
    const empty = await tempDir('pb-empty-');
    expect((await runCli(['diff', oldDir, empty])).code).toBe(2);
    const bad = path.join(empty, 'manifest.json');
    await fs.writeFile(bad, JSON.stringify({ ...(await manifest(oldDir)), schemaVersion: 99 }));
    const run = await runCli(['diff', oldDir, bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('schemaVersion 99 is not supported');
    await fs.rm(empty, { recursive: true, force: true });
  });

  it('exits 2 when NEW is missing', async () => {
    expect((await runCli(['diff', oldDir])).code).toBe(2);
  });
});

describe('a section rewritten whole', () => {
  it('is shown removed and added once the edits pass the limit, and an edit here and there in a long text still gets its shortest diff', async () => {
    const { buildProject } = await import('../../compiler/index.js');
    const { writeTree } = await import('../helpers/tree.js');
    const root = await tempDir('pb-diff-rewrite-');
    // Every tenth line the same in both: a shortest diff keeps them, the whole replacement does not.
    const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => (i % 10 === 9 ? `common line ${i}` : `${prefix} line ${i}`)).join('\n');
    const long = Array.from({ length: 5_000 }, (_, i) => `kept line ${i}`);
    const files = (rewritten: string, edited: string) => ({
      'prompts/sections/rewritten.md': `${rewritten}\n`,
      'prompts/sections/edited.md': `${edited}\n`,
      'prompts/profiles/p.md': '---\nsections: [rewritten, edited]\ncacheWarning: false\n---\n',
    });
    await writeTree(root, files(lines('old', 3_000), long.join('\n')));
    expect((await buildProject({ root, cacheDir: null, outDir: path.join(root, 'old') })).ok).toBe(true);
    // 3,000 lines all changed (Myers unbounded: 3 s here; 8,000: 14 s); 30 lines edited among 5,000.
    await writeTree(root, files(lines('new', 3_000), long.map((l, i) => (i % 166 === 0 ? `${l} (edited)` : l)).join('\n')));
    expect((await buildProject({ root, cacheDir: null, outDir: path.join(root, 'new') })).ok).toBe(true);
    const run = await runCli(['diff', path.join(root, 'old'), path.join(root, 'new'), '--no-color']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('@@ -1,3000 +1,3000 @@\n-old line 0\n-old line 1\n');
    expect(run.stdout).toContain('-common line 9\n');
    expect(run.stdout).toContain('+common line 2999\n');
    expect(run.stdout.match(/^@@ .* @@$/gm)!.length).toBe(1 + 31);
    expect(run.stdout).toContain('-kept line 166\n+kept line 166 (edited)\n');
  });
});

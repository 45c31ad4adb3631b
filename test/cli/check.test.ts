/**
 * `prompt-build check` as CI runs it, on temporary copies of
 * `test/fixtures/check-basic`: a clean tree passes; a stale `dist/`, a
 * diagnostic or a forbidden static prefix change fails; nothing is written.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, readTree, tempDir } from '../helpers/tree.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => fs.rm(r, { recursive: true, force: true })));
});

/** The fixture built once by the CLI (`dist/` written); each test gets a copy of it. */
let builtFixture: Promise<string> | undefined;
function buildFixtureOnce(): Promise<string> {
  return (builtFixture ??= (async () => {
    const root = await copyFixture('check-basic');
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    return root;
  })());
}

/** A copy of the fixture, built (`dist/` written) unless `built` is false. */
async function project({ built = true } = {}): Promise<string> {
  const root = built ? await tempDir('pb-check-') : await copyFixture('check-basic');
  if (built) await fs.cp(await buildFixtureOnce(), root, { recursive: true, verbatimSymlinks: true });
  roots.push(root);
  return root;
}

const check = (root: string, ...args: string[]) => runCli(['check', '--root', root, '--no-cache', ...args]);

async function distFile(root: string, prefix: string): Promise<string> {
  const files = [...(await readTree(path.join(root, 'dist'))).keys()].filter((f) => f.startsWith(prefix));
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe('prompt-build check', () => {
  it('passes on a clean tree whose dist/ is what the sources produce', async () => {
    const root = await project();
    const before = await readTree(path.join(root, 'dist'));
    const run = await check(root);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^check passed: 2 profiles, 1 agent; dist\/ up to date$/m);
    expect(await readTree(path.join(root, 'dist'))).toEqual(before);
  });

  it('passes without a dist/ and writes none, when the project says it commits none (--allow-missing-dist)', async () => {
    const root = await project({ built: false });
    const run = await check(root, '--allow-missing-dist');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('note: dist/ does not exist, so there is nothing to compare with');
    const json = JSON.parse((await check(root, '--reporter', 'json', '--allow-missing-dist')).stdout);
    expect(json).toMatchObject({ ok: true, outDir: 'dist', compared: false, stale: [] });
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });

  it('fails without a dist/ by default, saying how to fix it, in every reporter', async () => {
    const root = await project({ built: false });
    const run = await check(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: dist/ does not exist; run `prompt-build build`');
    expect(run.stderr).toContain('--allow-missing-dist');
    const json = JSON.parse((await check(root, '--reporter', 'json')).stdout);
    expect(json).toMatchObject({ ok: false, compared: false, missing: true });
    expect((await check(root, '--reporter', 'github')).stdout).toMatch(/^::error file=dist,title=check\/missing-dist::/m);
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });

  it('fails on a source edited without a rebuild, listing changed, missing and left-over files', async () => {
    const root = await project();
    const oldIntro = await distFile(root, 'static/intro.');
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), 'Be kind.\n');
    const run = await check(root, '--reporter', 'json');
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.ok).toBe(false);
    expect(out.diagnostics).toEqual([]);
    expect(out.stale).toContainEqual({ file: 'dist/manifest.json', state: 'changed' });
    expect(out.stale).toContainEqual({ file: 'dist/bundle.mjs', state: 'changed' });
    expect(out.stale).toContainEqual({ file: `dist/${oldIntro}`, state: 'extra' });
    expect(out.stale.filter((s: { file: string; state: string }) => s.state === 'missing' && s.file.startsWith('dist/static/intro.'))).toHaveLength(1);
  });

  it('names each stale file in the human report', async () => {
    const root = await project();
    const intro = await distFile(root, 'static/intro.');
    const rules = await distFile(root, 'static/rules.');
    await fs.writeFile(path.join(root, 'dist', intro), 'edited by hand\n');
    await fs.rm(path.join(root, 'dist', rules));
    await fs.writeFile(path.join(root, 'dist/static/stray.md'), 'left over\n');
    const run = await check(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('dist/ is stale: 3 files differ from what the sources produce');
    expect(run.stderr).toContain(`  changed  dist/${intro}`);
    expect(run.stderr).toContain(`  missing  dist/${rules}`);
    expect(run.stderr).toContain('  extra    dist/static/stray.md');
    expect(run.stderr).toMatch(/^check failed$/m);
  });

  it('a link or a FIFO in dist/ is stale too: extra where the build puts nothing, changed in an artifact\'s place', async () => {
    const root = await project();
    const intro = await distFile(root, 'static/intro.');
    const copy = path.join(root, 'outside.md');
    await fs.copyFile(path.join(root, 'dist', intro), copy);
    await fs.rm(path.join(root, 'dist', intro));
    await fs.symlink(copy, path.join(root, 'dist', intro));
    await fs.symlink(copy, path.join(root, 'dist/static/linked.md'));
    execFileSync('mkfifo', [path.join(root, 'dist/static/pipe.md')]);
    const run = await check(root, '--reporter', 'json');
    expect(run.code).toBe(1);
    const { stale } = JSON.parse(run.stdout) as { stale: { file: string; state: string }[] };
    expect(stale).toContainEqual({ file: `dist/${intro}`, state: 'changed' });
    expect(stale).toContainEqual({ file: 'dist/static/linked.md', state: 'extra' });
    expect(stale).toContainEqual({ file: 'dist/static/pipe.md', state: 'extra' });
    expect(stale.filter((s) => s.file === `dist/${intro}`)).toHaveLength(1);
  });

  it('names the first ten stale files, then how many more, and lists all of them in JSON', async () => {
    const root = await project();
    for (let i = 0; i < 14; i++) await fs.writeFile(path.join(root, `dist/static/stray-${String(i).padStart(2, '0')}.md`), 'left over\n');
    const run = await check(root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('dist/ is stale: 14 files differ from what the sources produce');
    expect(run.stderr.split('\n').filter((line) => line.startsWith('  extra    dist/static/stray-'))).toHaveLength(10);
    expect(run.stderr).toContain('  … and 4 more (--reporter json lists every one)');
    const json = await check(root, '--reporter', 'json');
    expect(JSON.parse(json.stdout).stale.filter((s: { file: string }) => s.file.startsWith('dist/static/stray-'))).toHaveLength(14);
  });

  it('fails on diagnostics, in every reporter', async () => {
    const root = await project();
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), '---\ndescription: x\n---\nHello {{user}}.\n');

    const human = await check(root);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain("prompts/sections/intro.md:4:7: error section/static-template: template expression in static section 'intro'");

    const json = await check(root, '--reporter', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).diagnostics.map((d: { rule: string }) => d.rule)).toEqual(['section/static-template']);

    const github = await check(root, '--reporter', 'github');
    expect(github.code).toBe(1);
    expect(github.stdout.split('\n')).toContain(
      "::error file=prompts/sections/intro.md,line=4,col=7,title=section/static-template::template expression in static section 'intro' " +
        '(a template in the static prefix would change it per user and break the global prompt cache; ' +
        'make the section `kind: dynamic`, or mark it `verbatim: true` if the braces are meant for the model)',
    );
  });

  it('annotates a stale dist/ for GitHub', async () => {
    const root = await project();
    await fs.writeFile(path.join(root, 'dist/static/stray.md'), 'left over\n');
    const run = await check(root, '--reporter', 'github');
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      '::error file=dist/static/stray.md,title=check/stale-dist::dist/static/stray.md is left over: the sources no longer produce it; ' +
        'run `prompt-build build` and commit the result',
    ]);
  });
});

describe('prompt-build check --allow-static-prefix-change', () => {
  /**
   * A built project and a copy of its dist/ as it was, then `edit` applied and rebuilt. The rebuild is setup,
   * made in this process: `check` is what is tested (the CLI's build and check agreeing is the first test's).
   */
  async function changed(edit: (root: string) => Promise<void>, keep: string[] = roots): Promise<{ root: string; baseline: string }> {
    const root = await tempDir('pb-check-');
    const baseline = await tempDir('pb-baseline-');
    keep.push(root, baseline);
    await fs.cp(await buildFixtureOnce(), root, { recursive: true, verbatimSymlinks: true });
    await fs.cp(path.join(root, 'dist'), baseline, { recursive: true });
    await edit(root);
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    return { root, baseline };
  }
  const editIntro = (root: string) => fs.appendFile(path.join(root, 'prompts/sections/intro.md'), 'Be kind.\n');
  /** The intro edited and rebuilt, once for the tests that only run `check` on it (check writes nothing). */
  const shared: string[] = [];
  let introChanged: Promise<{ root: string; baseline: string }> | undefined;
  const changedIntro = () => (introChanged ??= changed(editIntro, shared));
  afterAll(async () => {
    await Promise.all(shared.map((r) => fs.rm(r, { recursive: true, force: true })));
  });

  it('fails when a profile’s static prefix changes and it is not allowed', async () => {
    const { root, baseline } = await changedIntro();
    const run = await check(root, '--baseline', baseline, '--allow-static-prefix-change', 'simple');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: static prefix of profile 'default' changed \([0-9a-f]{12} → [0-9a-f]{12}\): every user's cached prompt prefix is lost/m);
    expect(run.stderr).not.toContain("'simple'");
  });

  it('passes when the profile is allowed by name or by *', async () => {
    const { root, baseline } = await changedIntro();
    for (const allowed of ['default', '*']) {
      const run = await check(root, '--baseline', baseline, '--allow-static-prefix-change', allowed);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("note: static prefix of profile 'default' changed (allowed)");
    }
  });

  it('lets a change behind the boundary through', async () => {
    const { root, baseline } = await changed((r) => fs.appendFile(path.join(r, 'prompts/sections/env-info.md'), 'More.\n'));
    const run = await check(root, '--baseline', baseline, '--allow-static-prefix-change', '--reporter', 'json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).staticPrefixChanges).toEqual([]);
  });

  it('reports the change in JSON and as a GitHub annotation on the profile', async () => {
    const { root, baseline } = await changedIntro();
    const json = JSON.parse((await check(root, '--baseline', path.join(baseline, 'manifest.json'), '--allow-static-prefix-change', '--reporter', 'json')).stdout);
    expect(json.ok).toBe(false);
    expect(json.staticPrefixChanges).toEqual([
      expect.objectContaining({ profile: 'default', source: 'prompts/profiles/default.md', allowed: false }),
    ]);
    const github = await check(root, '--baseline', baseline, '--allow-static-prefix-change', '--reporter', 'github');
    expect(github.stdout).toMatch(/^::error file=prompts\/profiles\/default.md,line=1,col=1,title=check\/static-prefix-change::static prefix of profile 'default' changed/m);
  });

  it('compares with the existing dist/ when no baseline is given', async () => {
    const root = await project();
    await editIntro(root);
    const run = await check(root, '--allow-static-prefix-change', '--reporter', 'json');
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.staticPrefixChanges.map((c: { profile: string }) => c.profile)).toEqual(['default']);
    expect(out.stale.length).toBeGreaterThan(0);
  });

  it('is a usage error when the baseline does not exist', async () => {
    const root = await project();
    const run = await check(root, '--baseline', path.join(root, 'nowhere'), '--allow-static-prefix-change', 'default');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no bundle at');
  });
});

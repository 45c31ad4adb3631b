/** `prompt-build build` as users call it: exit codes, reporters, --root/--out. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../compiler/cli/args.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, tempDir, CLI_BIN } from '../helpers/tree.js';

describe('prompt-build build', () => {
  it('builds any tree with --root and --out, exit 0', async () => {
    const root = await copyFixture('build/ok-basic');
    const out = await tempDir('pb-out-');
    const run = await runCli(['build', '--root', root, '--out', out, '--no-cache']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/built 2 profiles, 1 agent from \d+ sources/);
    await fs.access(path.join(out, 'manifest.json'));
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });

  it('runs as the executable npx finds (the bin itself, not through node)', async () => {
    const root = await copyFixture('build/ok-basic');
    const bin = CLI_BIN;
    const { stderr } = await promisify(execFile)(bin, ['build', '--root', root, '--no-cache', '--no-color']);
    expect(stderr).toMatch(/built 2 profiles, 1 agent from \d+ sources/);
  });

  it('with no command, builds (the default command)', async () => {
    const root = await copyFixture('build/ok-basic');
    const run = await runCli(['--root', root, '--no-cache']);
    expect(run.code).toBe(0);
    await fs.access(path.join(root, 'dist/manifest.json'));
  });

  it('diagnostics: exit 1, file:line:col, rule, an excerpt with a caret, no stack trace', async () => {
    const root = await copyFixture('build/err-include-missing');
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("prompts/sections/a.md:2:6: error include/missing: included file not found: './nope.md'");
    expect(run.stderr).toContain('  2 | Then @./nope.md here\n    |      ^');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('--reporter json prints {ok, diagnostics[]} on stdout', async () => {
    const root = await copyFixture('build/err-include-cycle');
    const run = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { ok: boolean; diagnostics: Array<Record<string, unknown>> };
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toEqual([
      {
        rule: 'include/cycle',
        severity: 'error',
        file: 'prompts/fragments/c.md',
        line: 1,
        column: 8,
        message: 'include cycle: prompts/fragments/b.md → prompts/fragments/c.md → prompts/fragments/b.md',
      },
    ]);
  });

  it('--reporter github prints workflow annotations', async () => {
    const root = await copyFixture('build/err-include-missing');
    const run = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'github']);
    expect(run.stdout.trim()).toBe(
      "::error file=prompts/sections/a.md,line=2,col=6,title=include/missing::included file not found: './nope.md'",
    );
  });

  it('--max-include-depth changes the depth guard', async () => {
    const root = await copyFixture('build/ok-depth-five');
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    const run = await runCli(['build', '--root', root, '--no-cache', '--max-include-depth', '4']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('include/depth');
  });

  it('--keep-comments keeps maintainer comments in the compiled text', async () => {
    const root = await copyFixture('build/ok-basic');
    const textOf = async (): Promise<string> => {
      const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8'));
      const rules = manifest.profiles.default.sections.find((s: { name: string }) => s.name === 'rules');
      return fs.readFile(path.join(root, 'dist', rules.file), 'utf8');
    };
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    expect(await textOf()).not.toContain('<!--');
    expect((await runCli(['build', '--root', root, '--no-cache', '--keep-comments'])).code).toBe(0);
    expect(await textOf()).toContain('<!-- maintainers: keep this list short -->\n');
  });

  it('a usage error exits 2 with help', async () => {
    const run = await runCli(['build', '--reporter', 'xml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Invalid values');
    expect((await runCli(['frobnicate'])).code).toBe(2);
  });

  it('a root that does not exist, or holds nothing to build, is a usage error', async () => {
    const missing = await runCli(['build', '--root', '/no/such/prompt-build-root']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such directory');
    const empty = await runCli(['build', '--root', await tempDir('pb-empty-')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('nothing to build');
  });

  it('an out directory that cannot be written is an error message, not a stack trace, and exit 1', async () => {
    const root = await copyFixture('build/ok-basic');
    const blocker = path.join(root, 'not-a-dir');
    await fs.writeFile(blocker, '');
    const run = await runCli(['build', '--root', root, '--out', path.join(blocker, 'dist'), '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^prompt-build: ENOTDIR/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('parseArgs is a pure function from argv to a command', async () => {
    const parsed = await parseArgs(['check', '--root', '/x', '--allow-static-prefix-change', 'default', '--reporter', 'github'], '/cwd');
    expect(parsed.kind).toBe('command');
    if (parsed.kind !== 'command' || parsed.command.name !== 'check') throw new Error('expected check');
    expect(parsed.command.options.root).toBe('/x');
    expect(parsed.command.options.reporter).toBe('github');
    expect(parsed.command.policy.allowStaticPrefixChange).toEqual(['default']);
    const build = await parseArgs([], '/cwd');
    expect(build.kind === 'command' && build.command.name).toBe('build');
    expect(build.kind === 'command' && build.command.options.root).toBe('/cwd');
  });
});

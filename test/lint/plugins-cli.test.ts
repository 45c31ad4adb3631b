/**
 * A project's remark plugins through the CLI, as users run them (one
 * process; the rest through the CLI's `main` in this process): two real
 * remark-lint rule packages (one named as a string, one imported by the
 * config), remark-lint itself, and a plugin file of the project's own that
 * reads prompt-build's `include` nodes — in `lint`, in `check`, and in
 * `build` (which writes nothing when a plugin's finding is an error, and
 * skips them with `--no-plugins`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, REPO } from '../helpers/tree.js';

/** The fixture in a temporary copy that finds this repository's packages, as an installed project finds its own. */
async function project(): Promise<string> {
  const root = await copyFixture('lint-plugins');
  await fs.symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

const findings = (stdout: string) =>
  (JSON.parse(stdout).diagnostics as Diagnostic[]).map((d) => `${d.severity} ${d.rule} ${d.file}:${d.line}:${d.column}`);

const EXPECTED = [
  'warning prompt-rules/no-todo prompts/sections/intro.md:3:57',
  'warning remark-lint/no-duplicate-headings prompts/sections/intro.md:6:1',
  // An error by the config's `rules`: remark-lint's own level is a warning.
  'error remark-lint/no-empty-url prompts/sections/intro.md:8:5',
  'warning prompt-rules/no-deep-include prompts/sections/intro.md:8:23',
];

/** The CLI's `main` in this process: the same commands, config and flags, without a process each. */
async function inProcess(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../../compiler/cli/main.js');
  const out = { stdout: '', stderr: '' };
  const code = await main([...args, '--no-color'], { out: (t) => void (out.stdout += `${t}\n`), err: (t) => void (out.stderr += `${t}\n`) });
  return { code, ...out };
}

describe('plugins from the config', () => {
  it('report in lint, as a process', async () => {
    const lint = await runCli(['lint', '--root', await project(), '--reporter', 'json']);
    expect(lint.code, lint.stderr).toBe(1);
    expect(findings(lint.stdout)).toEqual(EXPECTED);
  });

  it('report in check, and stop build from writing, unless --no-plugins', async () => {
    const [b, c, d] = await Promise.all([project(), project(), project()]);
    const check = await inProcess(['check', '--root', b, '--reporter', 'json', '--allow-missing-dist']);
    expect(check.code, check.stderr).toBe(1);
    expect(findings(check.stdout)).toEqual(EXPECTED);
    const build = await inProcess(['build', '--root', c]);
    expect(build.code).toBe(1);
    expect(build.stderr).toContain('prompts/sections/intro.md:8:5: error remark-lint/no-empty-url: Unexpected empty link URL');
    await expect(fs.access(path.join(c, 'dist'))).rejects.toThrow();
    const unplugged = await inProcess(['build', '--root', d, '--no-plugins']);
    expect(unplugged.code, unplugged.stderr).toBe(0);
    expect(unplugged.stderr).not.toContain('remark-lint');
    await fs.access(path.join(d, 'dist/manifest.json'));
  });

  it('names a plugin that does not load at its entry in the config, and runs nothing', async () => {
    const root = await project();
    const config = path.join(root, 'prompt-build.config.mjs');
    await fs.writeFile(config, (await fs.readFile(config, 'utf8')).replace("'remark-lint',", "'remark-lint-no-such-rule',"));
    const { code, stderr } = await inProcess(['lint', '--root', root]);
    expect(code).toBe(1);
    expect(stderr).toContain("prompt-build.config.mjs:5:13: error plugin/load-failed: plugin \"remark-lint-no-such-rule\" did not load: no package 'remark-lint-no-such-rule' is installed");
    expect(stderr).not.toContain('remark-lint/no-duplicate-headings');
  });
});

/**
 * What the commands print is shown, not obeyed: prompt text holding a
 * `\r\e[2K` (which erases a line from a terminal), a C1 CSI, or a
 * right-to-left override reaches stdout escaped as diagnostics escape it —
 * on a pipe as on a terminal — and exactly only when asked: `--raw` for
 * `render` and `diff`, `--json` (which parses back to the exact text, and
 * writes even DEL, C1 and bidi characters as \u escapes).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifestJson, renameKey, writeManifestJson, type JsonObject } from '../helpers/crafted-bundle.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

const HIDDEN = 'rm -rf / is fine\r\u001b[2KBe careful.';
const TEXT = `Intro.\n${HIDDEN}\nBidi \u202eereh, C1 \u009b31m red.\n`;
const SHOWN = ['rm -rf / is fine\\r\\e[2KBe careful.', 'Bidi \\u{202e}ereh, C1 \\x9b31m red.'];
/** Anything a terminal acts on or hides, but the line feed: none may reach stdout unasked. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

let root: string;

beforeAll(async () => {
  root = await tempDir('pb-terminal-out-');
  await writeTree(root, {
    'prompt-build.config.json': JSON.stringify({ rules: { 'source/control-character': 'warning', 'source/bidi-control': 'warning' } }),
    'prompts/sections/intro.md': 'Intro.\nBe careful.\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro]\n---\n',
  });
  // Both builds are setup, made by the CLI's own code in this process: the commands below run as users run them.
  expect((await runCliInProcess(['build', '--root', root, '--out', 'old', '--no-cache'])).code).toBe(0);
  await writeTree(root, { 'prompts/sections/intro.md': TEXT });
  const build = await runCliInProcess(['build', '--root', root, '--no-cache']);
  expect(build.code, build.stderr).toBe(0);
});

afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe('render', () => {
  it('shows control and bidi characters escaped, line by line', async () => {
    const run = await runCli(['render', '--root', root, '--cwd', root], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(UNSAFE);
    const lines = run.stdout.split('\n');
    for (const shown of SHOWN) expect(lines).toContain(shown);
  });

  it('prints the exact text with --raw', async () => {
    const run = await runCli(['render', '--root', root, '--cwd', root, '--raw'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(TEXT.replace(/\n$/, ''));
  });

  it('--json parses back to the exact text, with nothing unsafe written raw', async () => {
    const run = await runCli(['render', '--root', root, '--cwd', root, '--json'], { cwd: root });
    expect(run.stdout).not.toMatch(UNSAFE);
    expect(JSON.parse(run.stdout).system[0]).toBe(TEXT.replace(/\n$/, ''));
  });

  it('escapes on a terminal too (a pseudo-terminal through script(1))', async () => {
    const command = [process.execPath, CLI_BIN, 'render', '--root', root, '--cwd', root, '--no-color'].map((a) => `'${a}'`).join(' ');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile('script', ['-qec', command, '/dev/null'], { cwd: root, env: { ...process.env, NO_COLOR: '1' } }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    // The terminal writes each line break as CR LF.
    const lines = stdout.split('\r\n');
    for (const shown of SHOWN) expect(lines).toContain(shown);
    expect(stdout.replace(/\r\n/g, '\n')).not.toMatch(UNSAFE);
  });
});

describe('diff', () => {
  it('shows the changed lines escaped, and exact with --raw', async () => {
    const run = await runCli(['diff', 'old', 'dist'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(UNSAFE);
    expect(run.stdout.split('\n')).toContain(`+${SHOWN[0]}`);
    const raw = await runCli(['diff', 'old', 'dist', '--raw'], { cwd: root });
    expect(raw.stdout.split('\n')).toContain(`+${HIDDEN}`);
  });

  it('--json writes names from the bundle with nothing unsafe raw, and parses back exactly', async () => {
    const crafted = path.join(root, 'crafted');
    await fs.cp(path.join(root, 'dist'), crafted, { recursive: true });
    const m = await readManifestJson(crafted);
    const name = 'evil\u001b]0;title\u0007\u202e\u009b';
    m.profiles = renameKey(m.profiles as JsonObject, 'default', name);
    await writeManifestJson(crafted, m);
    const run = await runCli(['diff', 'old', 'crafted', '--json'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(UNSAFE);
    expect((JSON.parse(run.stdout) as { profiles: { name: string }[] }).profiles.map((p) => p.name)).toContain(name);
    const text = await runCli(['diff', 'old', 'crafted'], { cwd: root });
    expect(text.stdout).not.toMatch(UNSAFE);
    expect(text.stdout).toContain('profile evil\\e]0;title\\x07\\u{202e}\\x9b: added');
  });
});

describe('inspect', () => {
  it('shows names and descriptions from a crafted manifest escaped; --json exact', async () => {
    const crafted = path.join(root, 'crafted-inspect');
    await fs.cp(path.join(root, 'dist'), crafted, { recursive: true });
    const m = await readManifestJson(crafted);
    const profiles = renameKey(m.profiles as JsonObject, 'default', 'x\u001b[2Ky');
    (profiles['x\u001b[2Ky'] as JsonObject).description = 'a\rb\u202ec';
    m.profiles = profiles;
    await writeManifestJson(crafted, m);
    const run = await runCli(['inspect', 'crafted-inspect'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(UNSAFE);
    expect(run.stdout.split('\n')).toContain('profile x\\e[2Ky — a\\rb\\u{202e}c');
    const json = await runCli(['inspect', 'crafted-inspect', '--json'], { cwd: root });
    expect(json.stdout).not.toMatch(UNSAFE);
    expect((JSON.parse(json.stdout) as { profiles: { description: string }[] }).profiles[0]!.description).toBe('a\rb\u202ec');
  });
});

describe('check', () => {
  it('names a left-over bundle file whose name holds an escape, escaped', async () => {
    const name = 'static/x\u001b]0;pwned\u0007.md';
    await fs.writeFile(path.join(root, 'dist', name), 'left over\n');
    try {
      const run = await runCli(['check', '--root', root, '--no-cache'], { cwd: root });
      expect(run.code).toBe(1);
      expect(run.stderr).not.toMatch(UNSAFE);
      expect(run.stderr).toContain('static/x\\e]0;pwned\\x07.md');
    } finally {
      await fs.rm(path.join(root, 'dist', name));
    }
  });
});

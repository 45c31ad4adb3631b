/**
 * A build writes each text's artifacts as it compiles it (write/
 * artifact-writer.ts, on a thread of its own when run as the command): a build
 * that fails after they were started leaves the out directory as it was — the
 * previous bundle byte for byte, or no directory at all — one the bundle leaves
 * out (a section in no profile) is removed again, and a build run from a script
 * given as text (`node --input-type=module -e`) starts its threads.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readTree, REPO, tempDir, writeTree } from '../helpers/tree.js';

const CONFIG = { models: ['claude-opus-4-5'] };
const SOURCES = {
  'prompts/profiles/default.md': '---\nsections: [intro, greeting]\n---\n',
  'prompts/sections/intro.md': '---\nname: intro\n---\nYou are a helper.\n',
  'prompts/sections/greeting.md': '---\nname: greeting\nkind: dynamic\ninputs: [user]\n---\nHello, {{user}}.\n',
  'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nHelp.\n',
};

describe('artifacts written before emit ends', () => {
  it('a build that emit fails (a rule raised to an error) leaves the previous bundle byte for byte', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompt-build.config.json': JSON.stringify(CONFIG) });
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    const before = await readTree(path.join(root, 'dist'));
    // New texts (new artifact names), and a rule that makes emit's warning an error: linking passes, emit fails.
    await writeTree(root, {
      'prompts/sections/intro.md': '---\nname: intro\n---\nYou are a helper, changed.\n',
      'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nHelp, changed.\n',
      'prompt-build.config.json': JSON.stringify({ ...CONFIG, rules: { 'cache/prefix-below-minimum': 'error' } }),
    });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cache/prefix-below-minimum');
    expect(await readTree(path.join(root, 'dist'))).toEqual(before);
  });

  it('a section in no profile, written as it was compiled, is not left in the bundle', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompts/sections/orphan.md': '---\nname: orphan\n---\nIn no profile.\n', 'prompt-build.config.json': JSON.stringify(CONFIG) });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('section/unused');
    const files = [...(await readTree(path.join(root, 'dist'))).keys()];
    expect(files.filter((rel) => rel.startsWith('static/intro.'))).toHaveLength(1);
    expect(files.filter((rel) => rel.includes('orphan'))).toEqual([]);
  });

  it('a first build that emit fails leaves no out directory, nor the missing folders above it', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompt-build.config.json': JSON.stringify({ ...CONFIG, rules: { 'cache/prefix-below-minimum': 'error' } }) });
    const run = await runCli(['build', '--root', root, '--no-cache', '--out', 'a/b/dist']);
    expect(run.code).toBe(1);
    await expect(fs.access(path.join(root, 'a'))).rejects.toThrow();
  });

  it('a build run from a script given as text (`node --input-type=module -e`) uses its threads and builds', async () => {
    const root = await tempDir();
    const sections = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`prompts/sections/s${i}.md`, `---\nname: s${i}\n---\nSection ${i}.\n`]));
    await writeTree(root, { ...sections, 'prompts/profiles/default.md': `---\nsections: [${Object.keys(sections).map((_, i) => `s${i}`).join(', ')}]\n---\n` });
    const script = `const { buildProject } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'lib/index.js')).href)});
      const built = await buildProject({ root: process.argv[1], cacheDir: null, parallelThreshold: 1 });
      console.log(JSON.stringify({ ok: built.ok, errors: built.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), written: built.written?.written.length }));`;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script, root], (error, out, err) => (error ? reject(new Error(err)) : resolve(out))),
    );
    expect(JSON.parse(stdout)).toEqual({ ok: true, errors: [], written: 72 });
  });
});

/** Input written by an attacker, or by accident: every case is a diagnostic, never a crash or a hang. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const PROFILE = { 'prompts/profiles/p.md': '---\nsections: [a]\n---\n' };

async function build(files: Record<string, string | Uint8Array>, options = {}) {
  const root = await tempDir();
  await writeTree(root, { ...PROFILE, ...files });
  return { root, result: await buildProject({ root, cacheDir: null, ...options }) };
}

function rules(result: Awaited<ReturnType<typeof build>>['result']): string[] {
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}

describe('hostile input', () => {
  it('a YAML alias bomb is a positioned diagnostic', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(9).fill(`*l${i}`).join(',')}]`);
    const bomb = `---\nl0: &l0 [lol]\n${levels.join('\n')}\n---\nBody\n`;
    const { result } = await build({ 'prompts/sections/a.md': bomb });
    expect(rules(result)).toHaveLength(1);
    expect(rules(result)[0]).toMatch(/^frontmatter\/invalid-yaml prompts\/sections\/a\.md:\d+:\d+$/);
  });

  it('frontmatter that is not a mapping is a diagnostic', async () => {
    const { result } = await build({ 'prompts/sections/a.md': '---\n- just\n- a list\n---\nBody\n' });
    expect(rules(result)).toEqual(['frontmatter/invalid-yaml prompts/sections/a.md:2:1']);
  });

  it('a huge source and a binary source are refused', async () => {
    const { result } = await build(
      { 'prompts/sections/a.md': 'x'.repeat(5000), 'agents/b.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01]) },
      { maxBytes: 4096 },
    );
    expect(rules(result)).toEqual(['source/binary agents/b.md:1:1', 'source/too-large prompts/sections/a.md:1:1']);
  });

  it('a source symlinked from outside the root is refused', async () => {
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.md'), 'secret\n');
    const root = await tempDir();
    await writeTree(root, PROFILE);
    await fs.mkdir(path.join(root, 'prompts/sections'), { recursive: true });
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'prompts/sections/a.md'));
    const result = await buildProject({ root, cacheDir: null });
    expect(rules(result)).toEqual(['source/outside-root prompts/sections/a.md:1:1']);
  });

  it('an include through a symlinked directory that leaves the root is refused', async () => {
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'x.md'), 'outside\n');
    const root = await tempDir();
    await writeTree(root, { ...PROFILE, 'prompts/sections/a.md': 'See @../linked/x.md\n' });
    await fs.symlink(outside, path.join(root, 'prompts/linked'));
    const result = await buildProject({ root, cacheDir: null });
    // Discovery follows the link too: the file it finds there is a source outside the root.
    expect(rules(result)).toEqual(['source/outside-root prompts/linked/x.md:1:1', 'include/outside-root prompts/sections/a.md:1:5']);
  });

  it('@~/ in compile mode is confined to the root like any other path', async () => {
    const home = await tempDir();
    await fs.writeFile(path.join(home, 'notes.md'), 'private\n');
    const { result } = await build({ 'prompts/sections/a.md': 'Mine: @~/notes.md\n' }, { homeDir: home });
    expect(rules(result)).toEqual(['include/outside-root prompts/sections/a.md:1:7']);
  });

  it('a self-include is a cycle that names the file twice', async () => {
    const { result } = await build({ 'prompts/sections/a.md': 'Me: @./a.md\n' });
    expect(result.diagnostics[0]!.message).toBe('include cycle: prompts/sections/a.md → prompts/sections/a.md');
  });

  it('many diagnostics are collected in one build, sorted by file, line and column', async () => {
    const { result } = await build({
      'prompts/sections/a.md': '@./x.md\n@./y.png\n',
      'prompts/sections/b.md': '---\nkind: dynamic\ncache: uncached\n---\n{{a}}\n',
      'agents/z.md': '---\nname: z\ndescription: d\ntemperature: 9\n---\n',
    });
    expect(rules(result)).toEqual([
      'agent/invalid-field agents/z.md:4:1',
      'include/missing prompts/sections/a.md:1:1',
      'include/extension prompts/sections/a.md:2:1',
      'section/uncached-without-reason prompts/sections/b.md:3:1',
      'section/undeclared-input prompts/sections/b.md:5:3',
    ]);
  });
});

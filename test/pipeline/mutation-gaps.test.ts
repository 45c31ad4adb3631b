/**
 * Breaks that mutation testing found no test catching (issue 13): each case
 * here fails when its behaviour is broken on purpose.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, type Manifest } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

async function build(files: Record<string, string>, options: Record<string, unknown> = {}) {
  const root = await tempDir();
  await writeTree(root, files);
  return buildProject({ root, cacheDir: null, write: false, ...options });
}

const errors = (r: Awaited<ReturnType<typeof build>>) => r.diagnostics.filter((d) => d.severity === 'error');

describe('the static prefix hash', () => {
  it('depends on the order of the static sections and on every one of them, not on the dynamic tail', async () => {
    const profile = (sections: string[]) => `---\nsections: [${sections.join(', ')}]\ncacheWarning: false\n---\n`;
    const result = await build({
      'prompts/sections/s1.md': 'One.\n',
      'prompts/sections/s2.md': 'Two.\n',
      'prompts/sections/d1.md': '---\nkind: dynamic\n---\nTail one\n',
      'prompts/sections/d2.md': '---\nkind: dynamic\n---\nTail two\n',
      'prompts/profiles/ab.md': profile(['s1', 's2', 'd1']),
      'prompts/profiles/ba.md': profile(['s2', 's1', 'd1']),
      'prompts/profiles/a.md': profile(['s1', 'd1']),
      'prompts/profiles/ab-other-tail.md': profile(['s1', 's2', 'd2']),
      'prompts/sections/s3.md': 'Three.\n',
      'prompts/profiles/a3.md': profile(['s1', 's3', 'd1']),
    });
    expect(errors(result)).toEqual([]);
    const hash = (p: string) => result.manifest!.profiles[p]!.staticPrefixHash;
    expect(hash('ab')).not.toBe(hash('ba'));
    expect(hash('ab')).not.toBe(hash('a'));
    expect(hash('ab')).toBe(hash('ab-other-tail'));
    // The same first sections, another last one.
    expect(hash('ab')).not.toBe(hash('a3'));
  });
});

describe('definitions', () => {
  it('an uncached section whose reason is only white space has no reason', async () => {
    const result = await build({
      'prompts/sections/u.md': '---\nkind: dynamic\ncache: uncached\nreason: "   "\n---\nx\n',
      'prompts/profiles/p.md': '---\nsections: [u]\ncacheWarning: false\n---\n',
    });
    expect(errors(result).map((d) => `${d.rule} ${d.file}`)).toEqual(['section/uncached-without-reason prompts/sections/u.md']);
  });

  it('a {{…}} inside a fragment that a static section includes is reported, at the fragment', async () => {
    const result = await build({
      'prompts/sections/s.md': 'Intro\n@../fragments/f.md\n',
      'prompts/fragments/f.md': 'Working in {{cwd}} today\n',
      'prompts/profiles/p.md': '---\nsections: [s]\ncacheWarning: false\n---\n',
    });
    expect(errors(result).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['section/static-template prompts/fragments/f.md:1:12']);
  });

  it('a ~/ include leaving the root is refused by the lexical check, with its own message', async () => {
    const home = await tempDir('pb-home-');
    await writeTree(home, { 'x.md': 'from home\n' });
    const result = await build(
      { 'prompts/sections/s.md': 'See @~/x.md\n', 'prompts/profiles/p.md': '---\nsections: [s]\ncacheWarning: false\n---\n' },
      { homeDir: home },
    );
    const [d] = errors(result);
    expect(d?.rule).toBe('include/outside-root');
    expect(d?.message).toBe("'~/x.md' resolves outside the project root");
  });
});

describe('render --proactive', () => {
  it('assembles the proactive profile, not the default one', async () => {
    const run = await runCli(['render', '--root', REPO, '--proactive', '--json', '--cwd', path.join(REPO, 'test')]);
    expect(run.code, run.stderr).toBe(0);
    const { system } = JSON.parse(run.stdout) as { system: string[] };
    const manifest = JSON.parse(await fs.readFile(path.join(REPO, 'dist/manifest.json'), 'utf8')) as Manifest;
    const text = async (name: string) => {
      const entry = manifest.profiles.default!.sections.find((s) => s.name === name) ?? manifest.profiles.proactive!.sections.find((s) => s.name === name);
      return (await fs.readFile(path.join(REPO, 'dist', entry!.file), 'utf8')).trimEnd();
    };
    // Only in the proactive profile, and only in the default one.
    expect(system).toContain(await text('proactive'));
    expect(system).not.toContain(await text('tone-and-style'));
  });
});

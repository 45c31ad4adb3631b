/**
 * The Python target (issue 16): with `targets` including `python` (the
 * default) every dynamic section gets a Python module beside its thunk,
 * named by content hash and recorded in the manifest; a construct the Python
 * generator cannot express is an error where it is written; `--targets js`
 * builds what it built before.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli } from '../helpers/cli.js';
import { readTree, tempDir, writeTree } from '../helpers/tree.js';

const AT = 'prompts/sections/a.md';
/** Five frontmatter lines: the body starts on line 6. */
const DYNAMIC = '---\nkind: dynamic\ninputs: [x, o]\noptional: [x, o]\n---\n';

async function tree(body: string): Promise<string> {
  const root = await tempDir('pb-python-target-');
  await writeTree(root, {
    'prompts/profiles/p.md': '---\ncacheWarning: false\nsections: [s, a]\n---\n',
    'prompts/sections/s.md': 'Static.\n',
    [AT]: DYNAMIC + body,
  });
  return root;
}

async function errorsOf(body: string, targets?: ('js' | 'python')[]): Promise<string[]> {
  const result = await buildProject({ root: await tree(body), cacheDir: null, write: false, ...(targets ? { targets } : {}) });
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}

describe('the python target', () => {
  it.each([
    ['a lookup call', 'a\nb {{lookup o "k"}}\n', `${AT}:7:3`],
    ['a log call inside a block', '{{#if x}}\n  {{log x}}\n{{/if}}\n', `${AT}:7:3`],
    ['a data variable of an outer frame', '{{#each o}}{{@../index}}{{/each}}\n', `${AT}:6:12`],
    ['block parameters, at the block', 'x {{#each o as |v|}}{{v}}{{/each}}\n', `${AT}:6:3`],
    ['a literal in place of a name', '{{"text"}}\n', `${AT}:6:1`],
    ['a hash argument', '{{#each o key="k"}}{{this}}{{/each}}\n', `${AT}:6:1`],
  ])('refuses %s where it is written', async (_, body, at) => {
    expect(await errorsOf(body)).toEqual([`template/python-unsupported ${at}`]);
    // The JavaScript target alone renders it with the Handlebars runtime.
    expect(await errorsOf(body, ['js'])).toEqual([]);
  });

  it('refuses nesting deeper than CPython compiles, at the first block too deep', async () => {
    const loops = `{{#each o}}`.repeat(17) + 'x' + `{{/each}}`.repeat(17);
    expect(await errorsOf(`${loops}\n`)).toEqual([`template/python-unsupported ${AT}:6:${16 * 11 + 1}`]);
    const chain = `{{#if x}}a${'{{else if x}}a'.repeat(80)}{{/if}}`;
    expect(await errorsOf(`${chain}\n`)).toHaveLength(1);
    expect(await errorsOf(`${loops}\n`, ['js'])).toEqual([]);
    // Just inside the limits, the module compiles and renders (the conformance vectors run such modules in Python).
    expect(await errorsOf(`${`{{#each o}}`.repeat(16)}x${`{{/each}}`.repeat(16)}\n`)).toEqual([]);
  });

  it('accepts what the fast path compiles: this, ../, @root, @index/@key/@first/@last, literals, includeZero', async () => {
    const body = '{{#each o}}{{@index}}{{@key}}{{#if @first}}{{this}}{{/if}}{{#unless @last}}{{../x}}{{/unless}}{{@root.x}}{{/each}}{{#with "s"}}{{this}}{{/with}}{{#if 0 includeZero=true}}z{{/if}}\n';
    expect(await errorsOf(body)).toEqual([]);
  });

  it('emits a hashed .py per dynamic section, records it, and builds byte-identically twice', async () => {
    const root = await tree('Hello {{x}}\n');
    const first = await buildProject({ root, cacheDir: null });
    const section = first.manifest!.profiles.p!.sections.find((s) => s.kind === 'dynamic')!;
    if (section.kind !== 'dynamic') throw new Error('not dynamic');
    expect(section.python).toMatch(/^dynamic\/a\.[0-9a-f]{8}\.py$/);
    const bytes = await fs.readFile(path.join(root, 'dist', section.python!));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(section.pythonHash);
    expect(bytes.toString()).toContain('def create(rt):');
    // The JavaScript runtime reads a bundle with Python modules as before.
    const bundle = await loadBundle(path.join(root, 'dist'));
    expect(bundle.profiles.get('p')!.dynamicSections[0]!.render({ x: 'y' })).toBe('Hello y\n');

    const again = await buildProject({ root, cacheDir: null });
    expect(again.written?.written ?? []).toEqual([]);
    const other = await tempDir('pb-python-target-copy-');
    await fs.cp(path.join(root, 'prompts'), path.join(other, 'prompts'), { recursive: true });
    await buildProject({ root: other, cacheDir: null });
    expect(await readTree(path.join(other, 'dist'))).toEqual(await readTree(path.join(root, 'dist')));
  });

  it('--targets js leaves the Python modules out (and prunes those of an earlier build); a bad list is a usage error', async () => {
    const root = await tree('Hello {{x}}\n');
    expect((await runCli(['build', '--root', root])).code).toBe(0);
    const pythonFiles = async () => (await fs.readdir(path.join(root, 'dist/dynamic'))).filter((f) => f.endsWith('.py'));
    expect(await pythonFiles()).toHaveLength(1);
    const js = await runCli(['build', '--root', root, '--targets', 'js']);
    expect(js.code, js.stderr).toBe(0);
    expect(await pythonFiles()).toEqual([]);
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8'));
    expect(JSON.stringify(manifest)).not.toContain('pythonHash');
    const bad = await runCli(['build', '--root', root, '--targets', 'js,rust']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--targets');
    const refused = await runCli(['build', '--root', await tree('{{lookup o "k"}}\n'), '--targets', 'js,python']);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain(`${AT}:6:1`);
  });
});

describe('the python check in watch mode', () => {
  it('is made again when a section changes, and kept while it does not', async () => {
    const { createCompiler } = await import('../../compiler/index.js');
    const root = await tree('Hello {{x}}\n');
    const compiler = await createCompiler({ root, cacheDir: null });
    const errors = (result: { diagnostics: readonly { severity: string; rule: string }[] }) => result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule);
    expect(errors(await compiler.build())).toEqual([]);
    const file = path.join(root, AT);
    await fs.writeFile(file, `${DYNAMIC}x {{#each o as |v|}}{{v}}{{/each}}\n`);
    expect(errors(await compiler.build([{ path: file, kind: 'change' }]))).toEqual(['template/python-unsupported']);
    // Another file changes: the unsupported section's finding stays.
    await fs.writeFile(path.join(root, 'prompts/sections/s.md'), 'Static, edited.\n');
    expect(errors(await compiler.build([{ path: path.join(root, 'prompts/sections/s.md'), kind: 'change' }]))).toEqual(['template/python-unsupported']);
    await fs.writeFile(file, `${DYNAMIC}Hello again {{x}}\n`);
    expect(errors(await compiler.build([{ path: file, kind: 'change' }]))).toEqual([]);
  });

  it('is kept per profile: fixing one profile\'s section clears its finding, the other profile untouched', async () => {
    const { createCompiler } = await import('../../compiler/index.js');
    const root = await tree('Hello {{x}}\n');
    const b = path.join(root, 'prompts/sections/b.md');
    await writeTree(root, {
      'prompts/profiles/q.md': '---\ncacheWarning: false\nsections: [s, b]\n---\n',
      'prompts/sections/b.md': `${DYNAMIC}x {{#each o as |v|}}{{v}}{{/each}}\n`,
    });
    const compiler = await createCompiler({ root, cacheDir: null });
    const errors = (result: { diagnostics: readonly { severity: string; rule: string; file: string }[] }) =>
      result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}`);
    expect(errors(await compiler.build())).toEqual(['template/python-unsupported prompts/sections/b.md']);
    await fs.writeFile(b, `${DYNAMIC}Hello {{x}}\n`);
    expect(errors(await compiler.build([{ path: b, kind: 'change' }]))).toEqual([]);
  });
});

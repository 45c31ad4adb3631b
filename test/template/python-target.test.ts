/**
 * The Python target (issue 16): with `targets` including `python` (the
 * default) every dynamic section gets a Python module beside its thunk,
 * named by content hash and recorded in the manifest. Every template the
 * build accepts has one (issue 29): what only Handlebars' compiled code
 * renders in JavaScript — `lookup` and `log` calls, block parameters,
 * literals as names, sub-expressions, other data variables, hash arguments,
 * sections, nesting deeper than CPython indents — builds with the default
 * targets and renders the same in both runtimes. `--targets js` builds what
 * it built before.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { readTree, REPO, tempDir, writeTree } from '../helpers/tree.js';
import { quietConsole } from './harness.js';

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

/** Every construct beyond the fast path's, with contexts that take each way through it. */
const CONSTRUCTS: { name: string; template: string; contexts: Record<string, unknown>[] }[] = [
  { name: 'lookup calls', template: '{{lookup o x}}|{{lookup x 1}}|{{lookup o "length"}}', contexts: [{ o: { a: 1 }, x: 'a' }, { o: [5, 6], x: 'bc' }, { o: 0, x: null }] },
  { name: 'a log call inside a block', template: '{{#if x}}\n  {{log x}}{{x}}{{log "s" level="debug"}}\n{{/if}}\n', contexts: [{ x: 1 }, { x: 0 }] },
  { name: 'block parameters', template: '{{#each o as |v i|}}{{i}}={{v}};{{/each}}{{#with x as |y|}}<{{y}}>{{/with}}', contexts: [{ o: ['a', 'b'], x: 'w' }, { o: { k: 1 }, x: '' }] },
  { name: 'a block parameter of a block that gives none', template: '{{#if x as |y|}}{{y}}{{/if}}', contexts: [{ x: true }, { x: false }] },
  { name: 'literals in place of names', template: '{{"x"}}|{{1}}|{{true}}', contexts: [{ x: 'X', 1: 'one', true: 't' }, {}] },
  { name: 'sub-expressions', template: '{{#if (lookup o x)}}y{{else}}n{{/if}}{{#each (lookup o x)}}{{this}}{{/each}}', contexts: [{ o: { a: [1, 2] }, x: 'a' }, { o: {}, x: 'a' }] },
  { name: 'data variables beyond @index @key @first @last @root', template: '{{#each o}}{{#each this}}{{@_parent.index}}{{@_parent.key}}{{@foo}}{{/each}}{{/each}}', contexts: [{ o: [[1], [2, 3]] }, { o: { k: { l: 1 } } }] },
  { name: 'hash arguments', template: '{{#each o key="k"}}{{this}}{{/each}}{{#if 0 includeZero=x}}zero{{/if}}', contexts: [{ o: [1], x: true }, { o: [], x: '' }] },
  { name: 'sections', template: '{{x}}{{x}}{{#o}}[{{this}}]{{else}}-{{/o}}{{x}}{{^o}}none{{/o}}', contexts: [{ o: true, x: 1 }, { o: [1, 2], x: 2 }, { o: { a: 1 } }, { o: 0, x: 's' }] },
  {
    name: 'nesting deeper than CPython indents',
    // Past CPython's limits for the structured form: 20 nested loops, 100 indentation levels.
    template: `${'{{#each o}}'.repeat(20)}{{this}}${'{{/each}}'.repeat(20)}${'{{#if x}}'.repeat(99)}{{x}}${'{{/if}}'.repeat(99)}`,
    contexts: [{ o: [[[[[[[[[[[[[[[[[[[['deep']]]]]]]]]]]]]]]]]]]], x: 1 }, { o: [], x: 0 }],
  },
];

type Outcome = { output: string } | { error: string };

/** Each section of profile `p` rendered by the Python runtime (a real `python3` on the bundle), per context. */
function pythonOutcomes(dist: string, cases: { section: string; context: Record<string, unknown> }[]): { outcomes: Outcome[]; stderr: string } {
  const script = [
    'import json, sys',
    'import prompt_build as pb',
    'request = json.load(sys.stdin)',
    'sections = {s.name: s for s in pb.load_bundle(request["bundle"]).profiles["p"].dynamic_sections}',
    'out = []',
    'for case in request["cases"]:',
    '    try:',
    '        out.append({"output": sections[case["section"]].render(case["context"])})',
    '    except pb.RenderError as error:',
    '        out.append({"error": type(error).__name__})',
    'print(json.dumps(out))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', script], {
    input: JSON.stringify({ bundle: dist, cases }),
    env: { ...process.env, PYTHONPATH: path.join(REPO, 'python/src'), PYTHONDONTWRITEBYTECODE: '1' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  // Only the JSON: a {{log}} never prints to stdout.
  return { outcomes: JSON.parse(run.stdout) as Outcome[], stderr: run.stderr };
}

function outcomeOf(render: () => string): Outcome {
  try {
    return { output: render() };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

describe('the python target', () => {
  it('builds every construct the build accepts with the default targets, and both runtimes render it the same', async () => {
    const root = await tempDir('pb-python-target-');
    const names = CONSTRUCTS.map((_, index) => `c${index}`);
    await writeTree(root, {
      'prompts/profiles/p.md': `---\ncacheWarning: false\nsections: [s, ${names.join(', ')}]\n---\n`,
      'prompts/sections/s.md': 'Static.\n',
      ...Object.fromEntries(CONSTRUCTS.map((c, index) => [`prompts/sections/${names[index]}.md`, DYNAMIC + c.template])),
    });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const dist = path.join(root, 'dist');
    const sections = (await loadBundle(dist)).profiles.get('p')!.dynamicSections;
    const cases = CONSTRUCTS.flatMap((c, index) => c.contexts.map((context) => ({ section: names[index]!, context, construct: c.name })));
    const console = quietConsole();
    const javascript = cases.map((c) => outcomeOf(() => sections.find((s) => s.name === c.section)!.render(c.context)));
    console.restore();
    const python = pythonOutcomes(dist, cases);
    cases.forEach((c, index) => expect(python.outcomes[index], `${c.construct} with ${JSON.stringify(c.context)}`).toEqual(javascript[index]));
    // Both ways through each construct are taken: outputs differ, and a block parameter a block does not give fails.
    expect(new Set(javascript.map((o) => JSON.stringify(o))).size).toBeGreaterThan(CONSTRUCTS.length * 1.5);
    expect(javascript).toContainEqual({ error: 'RenderError' });
    // {{log}} at info and debug: nothing on the Python process's stderr either.
    expect(python.stderr).toBe('');
  });

  it('keeps the retired rule id valid in a config (`rules:` entries written for it still load)', async () => {
    const root = await tree('{{lookup o "k"}}\n');
    await writeTree(root, { 'prompt-build.config.json': JSON.stringify({ rules: { 'template/python-unsupported': 'off' } }) });
    const build = await runCli(['build', '--root', root]);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout + build.stderr).not.toContain('config/unknown-key');
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
    expect((await runCliInProcess(['build', '--root', root])).code).toBe(0); // setup: the earlier build
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
    // A template only Handlebars' compiled code renders in JavaScript builds for both targets too.
    const both = await runCli(['build', '--root', await tree('{{lookup o "k"}}\n'), '--targets', 'js,python']);
    expect(both.code, both.stdout + both.stderr).toBe(0);
  });
});

describe('the python target in watch mode', () => {
  it('a section edited to use what only Handlebars renders gets the Handlebars-shaped module, and back', async () => {
    const { createCompiler } = await import('../../compiler/index.js');
    const root = await tree('Hello {{x}}\n');
    const compiler = await createCompiler({ root, cacheDir: null });
    const pythonOf = (result: Awaited<ReturnType<typeof compiler.build>>): string => {
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      return [...result.bundle!.files.entries()].find(([name]) => name.endsWith('.py'))![1];
    };
    expect(pythonOf(await compiler.build())).not.toContain('rt.HB');
    const file = path.join(root, AT);
    await fs.writeFile(file, `${DYNAMIC}x {{#each o as |v|}}{{v}}{{/each}}\n`);
    expect(pythonOf(await compiler.build([{ path: file, kind: 'change' }]))).toContain('HB = rt.HB');
    await fs.writeFile(file, `${DYNAMIC}Hello again {{x}}\n`);
    expect(pythonOf(await compiler.build([{ path: file, kind: 'change' }]))).not.toContain('rt.HB');
  });
});

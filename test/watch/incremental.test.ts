/**
 * The incremental path in process, on a generated tree: after every step of a
 * scripted series of edits, `compiler.build(changes)` + `writeBundle(…, previous)`
 * — what `watch` does — must give what a fresh compiler gives for the same
 * tree: the same diagnostics, the same `bundle.files`, byte-identical `dist/`.
 * Rebuilds reuse entries, emitted outputs and serialised pieces from earlier
 * builds, so the steps revisit names, files and includes that earlier steps touched.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompiler,
  formatHuman,
  writeBundle,
  type BuildResult,
  type Compiler,
  type FileChange,
  type WrittenBundle,
} from '../../compiler/index.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { readTree, tempDir } from '../helpers/tree.js';

describe('incremental rebuilds', () => {
  let root: string;
  let out: string;
  let compiler: Compiler;
  let written: WrittenBundle | undefined;
  let manifest: Manifest;
  const file = (rel: string) => path.join(root, rel);
  const read = (rel: string) => fs.readFile(file(rel), 'utf8');

  /**
   * Applies a step, rebuilds with the changes it reports and checks the
   * result against a clean build; `ok`: whether the step must build.
   */
  async function step(apply: () => Promise<FileChange[]>, ok = true): Promise<BuildResult> {
    const changes = await apply();
    const result = await compiler.build(changes);
    expect(result.ok, result.diagnostics.map((d) => formatHuman(d)).join('\n')).toBe(ok);
    if (result.bundle) {
      written = (await writeBundle(out, result.bundle.files, written)).state;
      manifest = result.bundle.manifest;
    }
    const clean = await cleanBuild(root);
    expect(result.diagnostics.map((d) => formatHuman(d))).toEqual(clean.result.diagnostics.map((d) => formatHuman(d)));
    expect(result.ok).toBe(clean.result.ok);
    if (clean.result.bundle) {
      expect([...result.bundle!.files.keys()].sort()).toEqual([...clean.result.bundle.files.keys()].sort());
      for (const [rel, content] of clean.result.bundle.files) expect(result.bundle!.files.get(rel) === content, rel).toBe(true);
      expect(asText(await readTree(out))).toEqual(asText(clean.dist!));
    }
    return result;
  }

  const change = (rel: string, kind: FileChange['kind'] = 'change'): FileChange => ({ path: file(rel), kind });
  const edit = async (rel: string, rewrite: (text: string) => string) => {
    await fs.writeFile(file(rel), rewrite(await read(rel)));
    return [change(rel)];
  };
  const add = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(file(rel)), { recursive: true });
    await fs.writeFile(file(rel), text);
    return [change(rel, 'add')];
  };
  const remove = async (rel: string) => {
    await fs.rm(file(rel));
    return [change(rel, 'unlink')];
  };
  /** Source paths of the last good manifest: included fragments, and sections in a profile that nothing includes. */
  const targets = () => {
    const included = new Set(Object.values(manifest.sources).flatMap((s) => s.includes));
    const inProfiles = Object.values(manifest.profiles).flatMap((p) => p.sections.map((s) => s.source));
    return {
      fragments: [...included].filter((rel) => rel.startsWith('prompts/fragments/')).sort(),
      leaves: inProfiles.filter((rel) => !included.has(rel)).sort(),
    };
  };

  beforeAll(async () => {
    root = await tempDir('pb-incremental-');
    out = path.join(root, 'dist');
    const { generateTree } = (await import('../helpers/generate-tree.mjs' as string)) as {
      generateTree(root: string, options: { files: number; seed: number }): Promise<unknown>;
    };
    await generateTree(root, { files: 160, seed: 11 });
    // In this thread: the parse workers run the compiled lib/, tests the sources.
    compiler = await createCompiler({ root, outDir: out, cacheDir: null, parallelThreshold: Number.POSITIVE_INFINITY });
    await step(async () => []);
  });

  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it('edits an included fragment, then a leaf section, then both at once', async () => {
    const { fragments, leaves } = targets();
    const fragmentEdit = await step(() => edit(fragments[0]!, (t) => `${t}\nEdited fragment.\n`));
    expect(fragmentEdit.recompiled.length).toBeGreaterThan(1);
    const leafEdit = await step(() => edit(leaves[0]!, (t) => `${t}\nEdited leaf.\n`));
    expect(leafEdit.recompiled).toEqual([leaves[0]]);
    await step(async () => [...(await edit(fragments[1]!, (t) => `${t}\nAgain.\n`)), ...(await edit(leaves[1]!, (t) => t.replace('the', 'a')))]);
  });

  it('keeps the length of a file and changes one character', async () => {
    await step(() => edit(targets().leaves[2]!, (t) => t.replace(/the(?![^]*the)/, 'thE')));
  });

  it('adds a section with a profile naming it, then removes both', async () => {
    await step(async () => [
      ...(await add('prompts/sections/zz-added.md', 'Added ✓ 𝄞.\n')),
      ...(await add('prompts/profiles/zz-added.md', '---\nsections: [zz-added]\n---\n')),
    ]);
    expect(manifest.profiles['zz-added']!.sections.map((s) => s.name)).toEqual(['zz-added']);
    await step(async () => [...(await remove('prompts/profiles/zz-added.md')), ...(await remove('prompts/sections/zz-added.md'))]);
  });

  it('records the includes of a fragment once an output reaches it, and forgets them when none does', async () => {
    await step(async () => [
      ...(await add('prompts/fragments/zz-inner.md', 'Inner.\n')),
      ...(await add('prompts/fragments/zz-outer.md', 'Outer.\n\n@./zz-inner.md\n')),
    ]);
    expect(manifest.sources['prompts/fragments/zz-outer.md']!.includes).toEqual([]);
    const leaf = targets().leaves[6]!;
    const text = await read(leaf);
    await step(() => edit(leaf, (t) => `${t}\n@../fragments/zz-outer.md\n`));
    expect(manifest.sources['prompts/fragments/zz-outer.md']!.includes).toEqual(['prompts/fragments/zz-inner.md']);
    await step(() => edit(leaf, () => text));
    expect(manifest.sources['prompts/fragments/zz-outer.md']!.includes).toEqual([]);
  });

  it('lists a file outside prompts/ that an include reaches, follows its edits, and drops it when no include does', async () => {
    await step(async () => [...(await add('docs/zz-inner.md', 'Docs inner.\n')), ...(await add('docs/zz-outer.md', 'Docs outer.\n\n@./zz-inner.md\n'))]);
    expect(manifest.sources['docs/zz-outer.md']).toBeUndefined();
    const leaf = targets().leaves[7]!;
    const text = await read(leaf);
    await step(() => edit(leaf, (t) => `${t}\n@../../docs/zz-outer.md\n`));
    expect(manifest.sources['docs/zz-outer.md']!.includes).toEqual(['docs/zz-inner.md']);
    const before = manifest.sources['docs/zz-inner.md']!.hash;
    await step(() => edit('docs/zz-inner.md', (t) => `${t}Edited.\n`));
    expect(manifest.sources['docs/zz-inner.md']!.hash).not.toBe(before);
    await step(() => edit('docs/zz-outer.md', () => 'Docs outer, no include.\n'));
    expect(manifest.sources['docs/zz-inner.md']).toBeUndefined();
    await step(() => edit(leaf, () => text));
    expect(manifest.sources['docs/zz-outer.md']).toBeUndefined();
  });

  it('warns of a section no profile names until one does', async () => {
    const unused = (r: BuildResult) => r.diagnostics.filter((d) => d.rule === 'section/unused').map((d) => d.file);
    const added = await step(() => add('prompts/sections/zz-unused.md', 'Named by nobody yet.\n'));
    expect(unused(added)).toContain('prompts/sections/zz-unused.md');
    const named = await step(() => add('prompts/profiles/zz-naming.md', '---\nsections: [zz-unused]\n---\n'));
    expect(unused(named)).not.toContain('prompts/sections/zz-unused.md');
    const again = await step(() => remove('prompts/profiles/zz-naming.md'));
    expect(unused(again)).toContain('prompts/sections/zz-unused.md');
    await step(() => remove('prompts/sections/zz-unused.md'));
  });

  it('reports a second file claiming a section name until either goes', async () => {
    // The first static section of a profile with more: whichever file holds its name decides whether those after it
    // come after a dynamic section.
    const profile = Object.values(manifest.profiles).find((p) => p.boundaryIndex > 1)!;
    const leaf = profile.sections[0]!.source;
    const name = profile.sections[0]!.name;
    const twin = 'prompts/sections/aa-twin.md';
    const claim = `---\nname: ${name}\nkind: dynamic\ninputs: []\n---\nThe twin.\n`;
    // The twin comes first in path order: it holds the name, the original is the duplicate.
    const bad = await step(() => add(twin, claim), false);
    expect(bad.diagnostics.filter((d) => d.rule === 'section/duplicate-name').map((d) => d.file)).toEqual([leaf]);
    expect(bad.diagnostics.map((d) => d.rule)).toContain('profile/static-after-dynamic');
    await step(() => remove(twin));
    await step(() => add(twin, claim), false);
    const original = await read(leaf);
    await step(() => remove(leaf), false);
    await step(() => remove(twin), false);
    await step(() => add(leaf, original));
  });

  it('reports a duplicate agent name (the first in path order is kept), and recovers', async () => {
    const agent = Object.values(manifest.agents)[0]!;
    await step(() => add('agents/zz-copy.md', `---\nname: ${agent.name}\ndescription: A copy\n---\nCopy.\n`));
    await step(() => add('agents/00-copy.md', `---\nname: ${agent.name}\ndescription: An earlier copy\n---\nEarlier.\n`));
    await step(() => remove('agents/00-copy.md'));
    await step(() => remove('agents/zz-copy.md'));
  });

  it('turns a deleted included fragment into diagnostics, and recovers when it comes back', async () => {
    const fragment = targets().fragments[2]!;
    const text = await read(fragment);
    await step(() => remove(fragment), false);
    await step(() => add(fragment, text));
  });

  it('follows a renamed section file', async () => {
    const leaf = targets().leaves[4]!;
    const text = await read(leaf);
    const renamed = text.replace(/^---\n/, `---\nname: ${path.posix.basename(leaf, '.md')}\n`);
    await step(async () => [...(await remove(leaf)), ...(await add(leaf.replace('.md', '-renamed.md'), renamed))]);
  });

  it('breaks and fixes a section, a profile and an agent', async () => {
    const leaf = targets().leaves[5]!;
    const good = await read(leaf);
    await step(() => edit(leaf, (t) => t.replace(/^---\n/, '---\nkind: [unclosed\n')), false);
    await step(() => edit(leaf, () => good));
    const profile = Object.values(manifest.profiles)[0]!.source;
    const profileText = await read(profile);
    await step(() => edit(profile, (t) => t.replace('sections:\n', 'sections:\n  - no-such-section\n')), false);
    await step(() => edit(profile, () => profileText));
    const agent = Object.values(manifest.agents)[1]!.source;
    await step(() =>
      edit(agent, (t) => t.replace('model: inherit', 'model: inherit\ntemperature: 0.5\nx-meta: {"2": two, "10": ten, b: [1, 2], a: "é\\"q"}')),
    );
  });

  it('moves a static section after a dynamic one, and back', async () => {
    const profile = Object.values(manifest.profiles)[1]!;
    const lastStatic = profile.sections[profile.boundaryIndex - 1]!;
    const text = await read(lastStatic.source);
    await step(() => edit(lastStatic.source, (t) => t.replace(/^---\n/, '---\nkind: dynamic\ninputs: []\n')));
    await step(() => edit(lastStatic.source, () => text));
  });
});

async function cleanBuild(root: string): Promise<{ result: BuildResult; dist: Map<string, Buffer> | null }> {
  const out = await tempDir('pb-incremental-clean-');
  try {
    const result = await (await createCompiler({ root, outDir: out, cacheDir: null, parallelThreshold: Number.POSITIVE_INFINITY })).build();
    if (!result.bundle) return { result, dist: null };
    await writeBundle(out, result.bundle.files);
    return { result, dist: await readTree(out) };
  } finally {
    await fs.rm(out, { recursive: true, force: true });
  }
}

function asText(tree: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries([...tree].map(([file, bytes]) => [file, bytes.toString('utf8')]));
}

/**
 * `test/conformance/render.json`: template + JSON context → exact output or
 * a named error, computed by the JavaScript thunks. Here: the committed file
 * equals what the JavaScript runtime renders now, both straight from the code
 * generator and through a bundle built from the fixture tree the Python tests
 * build too (python/tests/test_conformance.py runs every case in Python).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { compileThunk, quietConsole } from '../template/harness.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import { HAND_SEEDS, randomAllSeeds, randomSeeds, renderTree, sectionName, type RenderSeed } from './render-seeds.js';
import { committedOrUpdated, outcomeOf, vectorJson, type Outcome } from './vectors.js';

interface RenderVector extends RenderSeed {
  expect: Outcome[];
}

function computeVectors(): RenderVector[] {
  return [...HAND_SEEDS, ...randomSeeds(), ...randomAllSeeds()].map((raw, index) => {
    // Contexts as JSON carries them (a -0 becomes 0): what a Python service gets.
    const seed = { ...raw, contexts: JSON.parse(JSON.stringify(raw.contexts)) as Record<string, unknown>[] };
    const render = compileThunk(seed.template, { section: sectionName(index), inputs: seed.inputs, optional: seed.optional });
    return { ...seed, expect: seed.contexts.map((ctx) => outcomeOf(() => render(ctx))) };
  });
}

const ABOUT =
  'Render cases: each template is section r<index> (4 digits) of the fixture tree in render-seeds.ts; ' +
  'every context renders to `output`, or throws `error` (naming `variable`). Computed by the JavaScript runtime: UPDATE_VECTORS=1 npx vitest run test/conformance/render-vectors.test.ts';

describe('render vectors', () => {
  // Templates that call {{log}} write to the console; what they render is what counts here.
  const console = quietConsole();
  afterAll(() => console.restore());
  const vectors = computeVectors();

  it('the committed render.json is what the JavaScript runtime renders', () => {
    const committed = JSON.parse(committedOrUpdated('render.json', vectorJson(ABOUT, { cases: vectors }))) as { cases: RenderVector[] };
    expect(committed.cases.length).toBe(vectors.length);
    committed.cases.forEach((c, index) => expect(c, c.name).toEqual(vectors[index]));
    // The corpus has errors and outputs, not one outcome over and over.
    const outcomes = vectors.flatMap((v) => v.expect);
    expect(outcomes.some((o) => 'error' in o && o.error === 'MissingVariableError')).toBe(true);
    expect(new Set(outcomes.map((o) => JSON.stringify(o))).size).toBeGreaterThan(1000);
  });

  it('a bundle built from the fixture tree renders every case the same', async () => {
    const root = await tempDir('pb-render-vectors-');
    await writeTree(root, renderTree(vectors));
    const build = await buildProject({ root, outDir: path.join(root, 'dist'), cacheDir: null, parallelThreshold: Number.MAX_SAFE_INTEGER });
    expect(build.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const bundle = await loadBundle(path.join(root, 'dist'));
    const sections = bundle.profiles.get('render')!.dynamicSections;
    expect(sections.map((s) => s.name)).toEqual(vectors.map((_, index) => sectionName(index)));
    sections.forEach((section, index) => {
      const vector = vectors[index]!;
      expect(vector.contexts.map((ctx) => outcomeOf(() => section.render(ctx))), vector.name).toEqual(vector.expect);
    });
  });
});

import { describe, expect, it } from 'vitest';
import Handlebars from 'handlebars';
import { compileThunk, handlebarsOutcome, quietConsole, thunkOutcome, usesFastPath } from './harness.js';
import { Generator, prng } from './random-templates.js';

describe('random templates (seeded) render what Handlebars renders', () => {
  const TEMPLATES = 600;
  const CONTEXTS = 6;

  it(`agrees on ${TEMPLATES} templates × ${CONTEXTS} contexts, all on the fast path`, () => {
    const generate = new Generator(prng(20250101));
    const outputs = new Set<string>();
    for (let t = 0; t < TEMPLATES; t++) {
      const template = generate.template(0);
      expect(usesFastPath(template), template).toBe(true);
      const render = compileThunk(template);
      const reference = Handlebars.compile(template, { noEscape: true });
      for (let c = 0; c < CONTEXTS; c++) {
        const ctx = generate.context();
        const expected = reference(ctx);
        outputs.add(expected);
        expect(render(ctx), `template #${t} ${JSON.stringify(template)} with ${JSON.stringify(ctx)}`).toBe(expected);
      }
    }
    // The corpus is varied, not a few outputs over and over.
    expect(outputs.size).toBeGreaterThan(TEMPLATES);
  });

  it(`agrees on ${TEMPLATES / 2} templates × ${CONTEXTS} contexts over every construct the build accepts`, () => {
    // The Python runtime meets the same corpus through the conformance vectors (render-seeds.ts).
    const generate = new Generator(prng(20261205), 'all');
    const console = quietConsole();
    let offFastPath = 0;
    for (let t = 0; t < TEMPLATES / 2; t++) {
      const template = generate.template(0);
      if (!usesFastPath(template)) offFastPath++;
      const render = compileThunk(template);
      for (let c = 0; c < CONTEXTS; c++) {
        const ctx = generate.context();
        expect(thunkOutcome(render, ctx), `template #${t} ${JSON.stringify(template)} with ${JSON.stringify(ctx)}`).toEqual(handlebarsOutcome(template, ctx));
      }
    }
    console.restore();
    expect(offFastPath).toBeGreaterThan(TEMPLATES / 4);
  });
});

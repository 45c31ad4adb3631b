import { describe, expect, it } from 'vitest';
import Handlebars from 'handlebars';
import { compileThunk, usesFastPath } from './harness.js';
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
});

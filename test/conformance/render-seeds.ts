/**
 * The inputs of `render.json`: hand-written templates that pin down what a
 * second runtime most easily gets wrong, then the property test's seeded
 * random templates. Expected outputs are never written here: the JavaScript
 * runtime computes them (render-vectors.test.ts), and the Python runtime must
 * agree byte for byte.
 */
import { Generator, prng } from '../template/random-templates.js';

export interface RenderSeed {
  name: string;
  template: string;
  /** Every top-level name the template reads; those not in `optional` are required. */
  inputs: string[];
  optional: string[];
  /** JSON contexts (what a Python service has). */
  contexts: Record<string, unknown>[];
}

const seed = (name: string, template: string, inputs: string[], optional: string[], ...contexts: Record<string, unknown>[]): RenderSeed => ({
  name,
  template,
  inputs,
  optional,
  contexts,
});

export const HAND_SEEDS: RenderSeed[] = [
  seed('no escaping, values are data', '{{v}}|{{{v}}}', ['v'], [], { v: '<a href="x">&amp;</a>' }, { v: '{{v}} @./x.md' }),
  seed(
    'numbers print as JavaScript prints them',
    '{{n}}',
    ['n'],
    [],
    { n: 1 },
    { n: 1.5 },
    { n: -0.0 },
    { n: 1e21 },
    { n: 1e20 },
    { n: 1e-7 },
    { n: 0.000001 },
    { n: 123456789012345680000 },
    { n: 0.1 },
    { n: -2.5e-10 },
    { n: 9007199254740993 },
  ),
  seed('the output is a + fold: numbers add', '{{a}}{{b}}', ['a', 'b'], [], { a: 1, b: 2 }, { a: 0.1, b: 0.2 }, { a: true, b: true }, { a: 1, b: 's' }, { a: [1, 2], b: 3 }, { a: null, b: 4 }),
  seed('a block result enters the fold as one value', '{{#if a}}{{n}}{{/if}}{{n}}', ['a', 'n'], [], { a: true, n: 2 }, { a: false, n: 2 }, { a: 1, n: 'x' }),
  seed('booleans, null, arrays and objects print as JavaScript converts them', '[{{v}}]', ['v'], [], { v: true }, { v: false }, { v: null }, { v: [1, [2, [3, null]], 'a', true, {}] }, { v: {} }, { v: [] }),
  seed('truthiness: empty list falsy, empty dict truthy, 0 and "" falsy', '{{#if v}}T{{else}}F{{/if}}', ['v'], [], { v: [] }, { v: {} }, { v: 0 }, { v: '' }, { v: ' ' }, { v: [0] }, { v: null }, { v: -0.0 }),
  seed('includeZero and #with treat 0 as present', '{{#if v includeZero=true}}T{{else}}F{{/if}}{{#with v}}<{{this}}>{{else}}-{{/with}}', ['v'], [], { v: 0 }, { v: false }, { v: [] }, { v: 'x' }),
  seed('#unless', '{{#unless v}}none{{else}}some{{/unless}}', ['v'], [], { v: [] }, { v: [1] }),
  seed(
    '#each over lists and dicts with @index @key @first @last',
    '{{#each v}}{{@index}}:{{@key}}={{this}}{{#if @first}}^{{/if}}{{#if @last}}${{/if}};{{else}}empty{{/each}}',
    ['v'],
    [],
    { v: ['a', 'b', 'c'] },
    { v: { b: 1, 2: 'two', a: 3, 1: 'one', '01': 'x' } },
    { v: [] },
    { v: {} },
    { v: 'a string is not walked' },
    { v: 7 },
  ),
  seed('@index adds in the fold', '{{#each v}}{{@index}}{{@index}},{{/each}}', ['v'], [], { v: [5, 6, 7] }),
  seed('../ reads the enclosing context', '{{#each items}}{{name}}@{{../site}} {{/each}}', ['items', 'site'], [], { items: [{ name: 'a' }, { name: 'b' }], site: 'S' }),
  seed('../ after a context that did not change (JavaScript ==)', '{{#each xs}}{{#with this}}{{../a}}|{{/with}}{{/each}}', ['xs', 'a'], [], { xs: [1, '1', [1], {}], a: 'A' }),
  seed('../ skips a context equal by JavaScript == (not identity)', '{{#each xs}}{{#with "1"}}{{../a}}{{/with}};{{/each}}', ['xs', 'a'], [], { xs: [1, 2, true, [1], '1', ' 1 ', '0x1'], a: 'A' }),
  seed('lookups are own properties only', '{{o.a}}|{{o.toString}}|{{o.constructor}}|{{xs.length}}|{{s.length}}|{{xs.[1]}}|{{s.[0]}}', ['o', 'xs', 's'], [], { o: { a: 1 }, xs: [1, 2], s: 'héllo' }, { o: null, xs: [], s: '😀' }),
  seed('literals as block parameters', '{{#with "lit"}}{{this}}/{{length}}{{/with}}{{#if 0}}x{{else}}0{{/if}}{{#each "s"}}no{{else}}s{{/each}}', [], [], {}),
  seed('@root', '{{#each xs}}{{@root.t}}{{/each}}', ['xs', 't'], [], { xs: [1, 2], t: 'T' }),
  seed('this inside a block over a null item is an empty object', '{{#each xs}}{{#if true}}[{{this}}]{{/if}}{{/each}}', ['xs'], [], { xs: [null, 1, 'a'] }),
  seed('a test of this inside a block over a null item sees the empty object', '{{#each xs}}{{#unless this}}{{#if this}}X{{/if}}-{{/unless}}{{/each}}', ['xs'], [], { xs: [null, 0, '', 'a', false, []] }, { xs: [] }),
  seed('this printed inside a block over a null item is the empty object', '{{#each xs}}{{#if this}}{{else}}<{{this}}>{{/if}}{{/each}}', ['xs'], [], { xs: [null, 0, '', false, []] }),
  seed(
    'records with a separator between them (@last), as the embedded MCP section writes them',
    '{{#each xs}}- {{name}}: {{about}}{{#unless @last}}\n{{/unless}}{{/each}}{{#each xs}}{{#if @first}}first {{/if}}{{name}};{{/each}}',
    ['xs'],
    [],
    { xs: [{ name: 'a', about: 'A' }, { name: 'b', about: 'B' }, { name: 'c', about: 'C' }] },
    { xs: [{ name: 'only', about: 'one' }] },
    { xs: [] },
    { xs: 'text' },
    { xs: { k: { name: 'in a dict', about: 'walked by value' } } },
    { xs: [{ name: 'a', about: 1 }, 'no record'] },
  ),
  seed('values that are no strings, printed after text, convert in place', 'n={{n}} xs={{#each xs}}{{this}},{{/each}} o={{o.v}}', ['n', 'xs', 'o'], [], { n: 1.5, xs: [1, true, null, [2, 3], {}], o: { v: 0 } }, { n: null, xs: 'x', o: { v: -0.0 } }),
  seed('a required variable missing', 'Hello {{name}}', ['name'], [], {}, { name: null }, { name: 'x' }),
  seed('an optional variable missing', 'Hello {{name}}!', ['name'], ['name'], {}, { name: 'x' }),
  seed('inherited names are never missing (as in JavaScript)', '[{{constructor}}]', ['constructor'], [], {}),
  seed('unicode', '{{a}} — ünïcödé 漢字 😀 \u2028', ['a'], [], { a: '😀\u2029' }),
];

export const RANDOM_TEMPLATES = 600;
export const RANDOM_CONTEXTS = 6;
const RANDOM_KEYS = ['a', 'b', 'n', 'xs', 'o'];

/** The property test's corpus (same generator, same seed); contexts made JSON (undefined dropped, NaN null). */
export function randomSeeds(): RenderSeed[] {
  const generate = new Generator(prng(20250101));
  const seeds: RenderSeed[] = [];
  for (let t = 0; t < RANDOM_TEMPLATES; t++) {
    const template = generate.template(0);
    const contexts = Array.from({ length: RANDOM_CONTEXTS }, () => JSON.parse(JSON.stringify(generate.context())) as Record<string, unknown>);
    seeds.push({ name: `random #${t}`, template, inputs: RANDOM_KEYS, optional: RANDOM_KEYS, contexts });
  }
  return seeds;
}

/** Section name of render case `index` in the fixture tree both runtimes build. */
export function sectionName(index: number): string {
  return `r${String(index).padStart(4, '0')}`;
}

/**
 * The fixture tree of the render cases: one dynamic section per case, one
 * profile naming them all. Written the same way by the Python tests
 * (python/tests/fixtures.py), so keep the two in step.
 */
export function renderTree(cases: readonly Pick<RenderSeed, 'template' | 'inputs' | 'optional'>[]): Record<string, string> {
  const files: Record<string, string> = {};
  cases.forEach((c, index) => {
    const front = ['---', 'kind: dynamic', `inputs: ${JSON.stringify(c.inputs)}`, `optional: ${JSON.stringify(c.optional)}`, '---', ''].join('\n');
    files[`prompts/sections/${sectionName(index)}.md`] = front + c.template;
  });
  const names = cases.map((_, index) => sectionName(index));
  files['prompts/profiles/render.md'] = `---\ncacheWarning: false\ndescription: every render case\nsections: ${JSON.stringify(names)}\n---\n`;
  return files;
}

/**
 * The inputs of `render.json`: hand-written templates that pin down what a
 * second runtime most easily gets wrong, then the property test's seeded
 * random templates. Expected outputs are never written here: the JavaScript
 * runtime computes them (render-vectors.test.ts), and the Python runtime must
 * agree byte for byte.
 */
import { analyzeTemplate, validateTemplate } from '../../compiler/template/index.js';
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

/** `value` in `depth` lists, one inside the other. */
function nestedList(depth: number, value: unknown): unknown {
  return depth === 0 ? value : [nestedList(depth - 1, value)];
}

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
  // Every construct the build accepts beyond the fast path's: the Python module is then Handlebars' compiled code's twin.
  seed('a literal in place of a name looks that name up', '{{"text"}}|{{1}}|{{true}}|{{null}}|{{"o.a"}}', [], [], { text: 'T', 1: 'one', true: 5, null: [1, 2], 'o.a': 'dotted', o: { a: 'nested' } }, {}),
  seed(
    'lookup: own properties by any key, a falsy object as it is',
    '{{lookup o k}}|{{lookup xs 1}}|{{lookup s "length"}}|{{lookup s 0}}|{{lookup o "toString"}}|{{lookup 0 "x"}}|{{lookup false "x"}}|{{lookup o null}}|{{lookup o xs}}|{{lookup o 1.5}}',
    ['o', 'k', 'xs', 's'],
    ['o', 'k', 'xs', 's'],
    { o: { a: 1, null: 'N', '1,2': 'joined', '1.5': 'F' }, k: 'a', xs: [1, 2], s: 'héllo' },
    { o: { null: 'N' }, k: null, xs: [], s: '😀' },
    { o: null, k: [1], xs: 'ab', s: 5 },
    { o: [7, 8], k: 1, xs: {}, s: '' },
  ),
  seed('log prints nothing; its value is undefined', '{{a}}{{log a}}{{b}}|{{log "x" a level="debug"}}{{#if (log a)}}T{{else}}F{{/if}}{{log}}', ['a', 'b'], [], { a: 1, b: 2 }, { a: 's', b: null }),
  seed('block parameters of #each: the item and its index or key', '{{#each xs as |v i|}}{{i}}:{{v}}:{{@index}} {{else}}none{{/each}}', ['xs'], [], { xs: ['a', 'b'] }, { xs: { k: 1, 2: 'two' } }, { xs: [] }, { xs: 'no' }),
  seed(
    'block parameters shadow context names, inner over outer',
    '{{#each xs as |a|}}{{a}}{{../a}}{{#with ../o as |a|}}{{a.k}}{{/with}}{{a}};{{/each}}{{#with o as |y z|}}{{y.k}}[{{z}}]{{/with}}',
    ['xs', 'a', 'o'],
    [],
    { xs: ['p', 'q'], a: 'A', o: { k: 'K' } },
    { xs: [], a: 0, o: 0 },
  ),
  // In a code span: elsewhere in a source file `@../` reads as an include.
  seed('@index and block parameters of nested loops', '`{{#each xs as |x i|}}{{#each ../ys as |y j|}}{{x}}{{y}}{{i}}{{j}}{{@index}}{{@../index}},{{/each}}{{/each}}`', ['xs', 'ys'], [], { xs: ['a', 'b'], ys: ['c', 'd'] }, { xs: { k: 1 }, ys: { l: 2, m: 3 } }),
  seed('a data variable named like a block parameter is the block parameter', '{{#each xs as |index|}}{{@index}}{{/each}}', ['xs'], [], { xs: ['p', 'q'] }),
  seed('a block parameter of a block that gives none fails to render', '{{#if x as |y|}}{{y}}{{/if}}', ['x'], [], { x: true }, { x: false }),
  seed('a block parameter given arguments is a value', '{{#each xs as |v|}}{{v a b=1}}{{#v}}[{{.}}]{{/v}};{{/each}}', ['xs', 'a'], ['a'], { xs: [1, [2, 3], true, null, { k: 1 }] }),
  seed(
    'sections: a block over a value by its type',
    '{{#x}}[{{this}}]{{else}}E{{/x}}|{{^x}}not{{/x}}',
    ['x'],
    [],
    { x: true },
    { x: false },
    { x: 0 },
    { x: '' },
    { x: 's' },
    { x: [1, 2] },
    { x: [] },
    { x: { a: 1 } },
    { x: null },
  ),
  seed('sections on paths, this and data', '{{#o.a}}<{{this}}>{{/o.a}}|{{#each xs}}{{#this}}({{.}}){{/this}}{{/each}}|{{#@root.o}}R{{/@root.o}}', ['o', 'xs'], [], { o: { a: [1, 2] }, xs: [true, 1, null, 0, ''] }, { o: { a: { b: 1 } }, xs: [] }),
  seed(
    'around a section the output is a buffer, each run of pieces added to it whole',
    '{{a}}{{b}}{{#x}}{{/x}}{{c}}{{d}}|{{#x}}{{a}}{{/x}}{{b}}|{{#x}}{{/x}}{{c}}{{d}}{{#y}}{{/y}}',
    ['a', 'b', 'c', 'd', 'x', 'y'],
    ['x', 'y'],
    { a: 1, b: 2, c: 3, d: 4, x: true },
    { a: 1, b: 2, c: 3, d: 4 },
    { a: 's', b: 2, c: true, d: null, x: [1] },
  ),
  seed(
    'a section alone in a block returns its value; an identical block reuses that code',
    '{{#with this}}{{#if c}}{{#x}}{{n}}{{/x}}{{/if}}{{m}}{{/with}}|{{#with this}}{{#if c}}{{!z}}{{#x}}{{n}}{{/x}}{{/if}}{{m}}-{{/with}}|{{#unless c}}{{else}}{{!z}}{{#x}}{{n}}{{/x}}{{/unless}}{{m}}',
    ['c', 'x', 'n', 'm'],
    [],
    { c: true, x: true, n: 1, m: 2 },
    { c: true, x: false, n: 1, m: 2 },
  ),
  seed('a section over an object gets the block parameters of the block around it', '{{#with o as |y|}}{{#p as |z|}}[{{z}}]{{z.length}}{{/p}}{{/with}}', ['o'], [], { o: { p: { a: 1 } } }, { o: { p: true } }),
  seed(
    'sub-expressions as block parameters and hash values',
    '{{#if (lookup o k)}}yes{{else}}no{{/if}}{{#each (lookup o k) as |v|}}{{v}}{{/each}}{{#if 0 includeZero=z}}T{{else}}F{{/if}}{{#unless 0 includeZero=(lookup o "z")}}U{{/unless}}{{lookup (lookup o k) 0}}',
    ['o', 'k', 'z'],
    ['z'],
    { o: { a: [1, 2], z: 1 }, k: 'a', z: true },
    { o: {}, k: 'a', z: '' },
  ),
  seed(
    'hash arguments: ignored where no helper reads them, the first of two equal keys, __proto__ dropped',
    '{{#each xs key="k"}}{{this}}{{/each}}{{#with x foo=1}}{{this}}{{/with}}|{{#if 0 includeZero=false includeZero=true}}T{{else}}F{{/if}}|{{#if 0 __proto__=o}}T{{else}}F{{/if}}',
    ['xs', 'x', 'o'],
    [],
    { xs: [1, 2], x: 'w', o: { includeZero: true } },
  ),
  seed('a hash argument named __proto__ is dropped unread', '{{#each xs as |v|}}{{#if v as |y|}}{{#if 0 __proto__=y.a}}T{{else}}F{{/if}}{{/if}}{{/each}}', ['xs'], [], { xs: [1, 'a'] }),
  seed(
    'data variables: @root, @_parent, @../, unknown ones',
    '`{{@root.a}}|{{@foo}}|{{@../index}}|{{@root}}|{{#each xs}}{{@_parent.root.a}}{{@../key}}{{@key.length}}{{#each this}}{{@../key}}{{@../../index}}{{@_parent._parent.index}}{{/each}};{{/each}}`',
    ['a', 'xs'],
    [],
    { a: 1, xs: { kk: [1], l: { m: 2 } } },
    { a: 0, xs: [[1, 2], 'no'] },
  ),
  seed(
    'nesting deeper than the structured Python form',
    // Past CPython's limits for the structured form: 20 nested loops, 100 indentation levels.
    `${'{{#each o}}'.repeat(20)}{{@index}}{{this}}${'{{/each}}'.repeat(20)}|${'{{#if x}}a'.repeat(99)}{{x}}${'{{/if}}'.repeat(99)}`,
    ['o', 'x'],
    [],
    { o: nestedList(20, 'deep'), x: 1 },
    { o: { b: { b: 1 } }, x: 0 },
  ),
  // Past CPython's 200 parentheses for the structured form, on the fast path otherwise.
  seed('a path longer than the structured Python form nests', `{{o.${Array(150).fill('b').join('.')}}}|{{#if o.${Array(150).fill('b').join('.')}}}y{{/if}}`, ['o'], [], { o: { b: { b: 1 } } }, { o: {} }),
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

export const RANDOM_ALL_TEMPLATES = 400;

/**
 * Seeded random templates over every construct the build accepts (the
 * property test's second corpus), kept only when the build would accept them
 * as a section reading the random keys.
 */
export function randomAllSeeds(): RenderSeed[] {
  const generate = new Generator(prng(20261204), 'all');
  const seeds: RenderSeed[] = [];
  while (seeds.length < RANDOM_ALL_TEMPLATES) {
    const template = generate.template(0);
    const contexts = Array.from({ length: RANDOM_CONTEXTS }, () => JSON.parse(JSON.stringify(generate.context())) as Record<string, unknown>);
    const analysis = analyzeTemplate(template);
    if (!analysis.ok || validateTemplate(analysis.ast).length > 0 || analysis.variables.some((v) => !RANDOM_KEYS.includes(v.name))) continue;
    seeds.push({ name: `random, any construct #${seeds.length}`, template, inputs: RANDOM_KEYS, optional: RANDOM_KEYS, contexts });
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

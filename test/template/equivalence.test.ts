import { describe, expect, it } from 'vitest';
import { compileThunk, handlebarsOutcome, thunkOutcome, usesFastPath } from './harness.js';

type Context = Record<string, unknown>;

interface Case {
  name: string;
  template: string;
  contexts: Context[];
}

class Getter {
  own = 'own';
  get inherited(): string {
    return 'from the prototype';
  }
}

// Values of every kind Handlebars treats specially, for `{{x}}` and `{{#if x}}`.
const VALUES: unknown[] = [undefined, null, 0, -0, 1, NaN, '', 'text', true, false, [], [0], [1, [2, 3]], {}, { a: 1 }];
const each = (name: string, values: unknown[]): Context[] => values.map((value) => ({ [name]: value }));

const FAST: Case[] = [
  { name: 'plain text', template: 'Hello, world.\nSecond line\n', contexts: [{}] },
  { name: 'empty template', template: '', contexts: [{}] },
  { name: 'a value of every kind', template: 'Hi {{name}}!', contexts: each('name', VALUES) },
  { name: 'no escaping, whatever the braces', template: '{{{html}}} {{html}} {{&html}}', contexts: [{ html: `<b a="1">&'\`=</b>` }] },
  { name: 'values are data, never templates', template: '{{x}} {{y.z}}', contexts: [{ x: '{{y}}', y: { z: '{{#if x}}no{{/if}}' } }] },
  {
    name: 'dotted paths through missing and primitive values',
    template: '[{{a.b.c}}] [{{a.b}}] [{{a.length}}]',
    contexts: [{}, { a: {} }, { a: { b: null } }, { a: { b: { c: 3 } } }, { a: 0 }, { a: 'str' }, { a: [1, 2] }, { a: false }],
  },
  { name: 'this, ./ and this.x', template: '{{this.x}}|{{./y}}|{{this}}|{{.}}', contexts: [{ x: 1, y: 'y' }, {}] },
  {
    name: 'adjacent values add with + (a Handlebars quirk)',
    template: '{{a}}{{b}}',
    contexts: [{ a: 1, b: 2 }, { a: true, b: 1 }, { a: '1', b: 2 }, { a: null, b: 2 }, { a: [1], b: 2 }, { a: 1, b: null }],
  },
  {
    name: 'a block result enters its parent as a value',
    template: '{{#if f}}{{a}}{{b}}{{/if}}{{c}}',
    contexts: [{ f: 1, a: 1, b: 2, c: 3 }, { f: 0, c: 5 }, { f: 1, a: 'x', b: 2, c: 3 }, { f: true, a: 1, c: 1 }],
  },
  { name: 'an empty else branch makes the fold a string', template: '{{a}}{{#if f}}x{{/if}}{{b}}', contexts: [{ a: 1, b: 2 }, { a: 1, b: 2, f: 1 }] },
  { name: '#if truthiness', template: '{{#if x}}yes{{else}}no{{/if}}', contexts: each('x', VALUES) },
  { name: '#if includeZero', template: '{{#if x includeZero=true}}yes{{else}}no{{/if}}', contexts: each('x', VALUES) },
  { name: '#unless with else', template: '{{#unless x}}none{{else}}some {{x}}{{/unless}}', contexts: each('x', VALUES) },
  {
    name: 'else if chains',
    template: '{{#if a}}A{{else if b}}B{{else unless c}}not C{{else}}D{{/if}}.',
    contexts: [{ a: 1 }, { b: 1 }, { c: 0 }, { c: 1 }, {}],
  },
  { name: 'an inverse-only #if', template: '{{^if x}}missing{{/if}}{{^if y}}{{else}}y={{y}}{{/if}}', contexts: [{}, { x: 1, y: 2 }] },
  {
    name: 'standalone block lines are removed',
    template: 'before\n{{#if x}}\n  inside {{x}}\n{{else}}\n  other\n{{/if}}\nafter\n  {{#each xs}}\n  - {{this}}\n  {{/each}}\nend',
    contexts: [{ x: 1, xs: ['a', 'b'] }, { xs: [] }],
  },
  {
    name: 'whitespace control ~',
    template: 'a  {{~x~}}  b\n{{~#if y}} c {{~/if~}}\n d {{~#each xs~}} [{{this}}] {{~/each}} e',
    contexts: [{ x: 'X', y: 1, xs: [1, 2] }, {}],
  },
  {
    name: '#each over arrays with data variables',
    template: '{{#each xs}}[{{@index}}:{{@key}}:{{this}}{{#if @first}} first{{/if}}{{#if @last}} last{{/if}}]{{/each}}',
    contexts: each('xs', [[], ['a'], ['a', 'b', 'c'], [0, null, undefined, false], [1, , 3], [[]]]),
  },
  {
    name: '#each with else over non-lists',
    template: '{{#each xs}}<{{this}}>{{else}}empty{{/each}}',
    contexts: each('xs', [undefined, null, 0, 'str', 5, true, {}, { a: 1 }, [], [, ,]]),
  },
  {
    name: '#each over objects and iterables',
    template: '{{#each o}}{{@key}}={{this}}{{#unless @last}}, {{/unless}}{{/each}}',
    contexts: each('o', [{ a: 1, b: 'two', c: null }, new Map([['k', 'v']]), new Set(['x', 'y']), { length: 2 }]),
  },
  {
    name: 'nested #each',
    template: '{{#each rows}}{{@index}}:{{#each cols}}{{@index}}{{../name}}{{@root.sep}}{{/each}};{{/each}}',
    contexts: [{ sep: '|', rows: [{ name: 'r0', cols: [1, 2] }, { name: 'r1', cols: [] }] }],
  },
  {
    name: '../ reaches the context of the enclosing block',
    template: '{{#each xs}}{{../prefix}}{{this}}{{#if ../flag}}!{{/if}} {{/each}}',
    contexts: [{ prefix: '>', flag: true, xs: [1, 2] }, { xs: ['a'] }],
  },
  {
    name: '../ counts context changes, not blocks',
    template: '{{#each xs}}{{#with this}}{{../n}}{{/with}}{{#with y}}{{../n}}{{/with}}{{/each}}',
    contexts: [{ n: 'top', xs: [{ n: 'item', y: { n: 'y' } }] }],
  },
  {
    name: 'null items make `this` the null context inside blocks',
    template: '{{#each xs}}[{{#if ../f}}{{this}}{{../f}}{{/if}}|{{#unless ../g}}{{this}}{{/unless}}]{{/each}}',
    contexts: [{ f: 'F', xs: [null, undefined, 1, NaN, 0, ''] }],
  },
  {
    name: '../ past the top and deeply nested',
    template: '{{../x}}{{#each xs}}{{../../x}}{{#with this}}{{#each ys}}{{../../z}}{{../../../z}}{{/each}}{{/with}}{{/each}}',
    contexts: [{ x: 1, z: 'Z', xs: [{ z: 'item', ys: [1, 2] }, { ys: [] }] }],
  },
  {
    name: '@root from any depth',
    template: '{{#each xs}}{{@root.title}}-{{this}} {{/each}}{{@root.title}} {{@root}} {{@root.a.b}}',
    contexts: [{ title: 'T', xs: [1, 2], a: 0 }, { title: 'T', xs: [], a: { b: 'ab' } }, { a: '' }],
  },
  {
    name: 'data variables outside #each are empty',
    template: '[{{@index}}{{@key}}{{@first}}{{@last}}]{{#if @first}}first{{/if}}{{#with o}}{{@index}}{{/with}}',
    contexts: [{ o: { a: 1 } }],
  },
  {
    name: 'data frames flow through #if and #with but not into #each inverses',
    template: '{{#each xs}}{{#with this}}{{@index}}{{#if @last}}L{{/if}}{{/with}}{{#each ys}}{{else}}({{@index}}){{/each}}{{/each}}',
    contexts: [{ xs: [{ ys: [] }, { ys: [1] }, 3] }],
  },
  {
    name: '#with and its else',
    template: '{{#with person}}{{name}} ({{age}}){{else}}nobody{{/with}}',
    contexts: each('person', [{ name: 'Ann', age: 0 }, null, {}, 0, [], '', 'str', false]),
  },
  {
    name: 'nested #with and ../',
    template: '{{#with a}}{{#with b}}{{c}}{{../x}}{{../../y}}{{/with}}{{/with}}',
    contexts: [{ y: 'Y', a: { x: 'X', b: { c: 'C' } } }, { a: { b: {} } }],
  },
  {
    name: 'lookups see own properties only',
    template: '{{constructor}}|{{__proto__}}|{{toString}}|{{s.length}}|{{n.toFixed}}|{{o.constructor}}|{{g.own}}{{g.inherited}}|{{f.constructor}}|{{p.constructor.name}}',
    contexts: [
      { s: 'abc', n: 5, o: {}, g: new Getter(), f: () => 1, p: { constructor: { name: 'own constructor' } } },
      Object.assign(Object.create({ inherited: 'x' }), { own: 1 }),
    ],
  },
  {
    name: 'function values are called as Handlebars calls them',
    template: '{{fn}}|{{obj.fn}}|{{#if fn}}if{{/if}}|{{#each list}}{{this}}{{/each}}|{{#with w}}{{v}}{{/with}}|{{opts}}',
    contexts: [
      {
        name: 'ctx',
        fn(this: { name?: string }) {
          return `fn:${this.name}`;
        },
        obj: {
          name: 'obj',
          fn(this: { name?: string }) {
            return `obj.fn:${this === undefined ? 'undefined' : this.name}`;
          },
        },
        list: () => ['a', 'b'],
        w: () => ({ v: 'from with' }),
        opts: (options: { name: string; hash: object; data: { root: { name: string } }; loc: unknown }) =>
          `${options.name} ${JSON.stringify(options.hash)} ${options.data.root.name} ${JSON.stringify(options.loc)}`,
      },
    ],
  },
  {
    name: 'functions in #each items see the data frame',
    template: '{{#each xs}}{{f}};{{/each}}',
    contexts: [
      {
        xs: ['a', 'b'].map((label) => ({
          f: (options: { data: { index: number; first: boolean; last: boolean; key: number; root: object } }) =>
            `${label}${options.data.index}${options.data.first}${options.data.last}${options.data.key}${typeof options.data.root}`,
        })),
      },
    ],
  },
  {
    name: 'comments produce nothing',
    template: '{{! a comment }}a{{!-- {{x}} in a long comment --}}b\n{{! standalone }}\nc',
    contexts: [{ x: 1 }],
  },
  {
    name: 'value conversion',
    template: '{{xs}}|{{o}}|{{big}}|{{neg}}|{{custom}}|{{date}}',
    contexts: [{ xs: [1, [2, 3], null], o: { a: 1 }, big: 10n, neg: -0, custom: { toString: () => 'custom!' }, date: new Date(0) }],
  },
  { name: 'unicode and line separators in text', template: 'a\u2028b "q" \\ {{x}} é 🎉\n', contexts: [{ x: '\u2029' }] },
  {
    name: 'literal block parameters',
    template: '{{#if 0}}a{{else}}b{{/if}}{{#if "x"}}c{{/if}}{{#each "str"}}d{{else}}e{{/each}}{{#with null}}f{{else}}g{{/with}}{{#unless false}}h{{/unless}}',
    contexts: [{}],
  },
  {
    name: '#each inverse results are values too',
    template: '{{#each xs}}x{{else}}{{a}}{{/each}}{{b}}',
    contexts: [{ xs: [], a: 1, b: 2 }, { xs: [1], a: 1, b: 2 }, { a: 'a', b: 2 }],
  },
  {
    name: '#each item results are folded per item',
    template: '{{#each xs}}{{this}}{{this}}{{/each}}|{{#each xs}}{{#if this}}{{this}}{{/if}}{{/each}}',
    contexts: [{ xs: [1, 2] }, { xs: [true, 'a', 0] }],
  },
  {
    name: '#with results are values too',
    template: '{{#with o}}{{a}}{{/with}}{{b}}|{{#with o}}{{#each xs}}{{this}}{{/each}}{{/with}}',
    contexts: [{ o: { a: 1, xs: [1, 2] }, b: 2 }],
  },
  {
    name: '#each nested in blocks whose fold is not yet a string',
    template: '{{a}}{{#if f}}{{b}}{{#each xs}}{{this}}{{/each}}{{else}}{{#each xs}}{{this}}{{/each}}{{/if}}{{c}}',
    contexts: [
      { a: 1, b: 2, c: 3, f: true, xs: [4] },
      { a: 1, c: 3, xs: [] },
      { a: 1, c: 3, xs: [5, 6] },
      { b: 2, f: 1, xs: [] },
    ],
  },
  {
    name: 'segment-literal paths',
    template: '{{[foo bar]}} {{a.[0]}} {{a.[1].b}} {{[this]}}',
    contexts: [{ 'foo bar': 'FB', a: ['zero', { b: 'one.b' }], this: 'literal this' }],
  },
  {
    name: 'scopedId quirks: this.if and foo-this',
    template: '{{this.if}}|{{foo-this}}',
    contexts: [{ if: 'if value', 'foo-this': () => 'called as a lambda' }],
  },
  {
    name: 'the environment section',
    template:
      '# Environment\n- Working directory: {{cwd}}\n- Platform: {{platform}}\n{{#if additionalDirectories}}\n- Also: {{#each additionalDirectories}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}\n{{/if}}\n{{#each mcpServers}}\n## {{name}}\n{{instructions}}\n{{/each}}\n',
    contexts: [
      { cwd: '/repo', platform: 'linux', additionalDirectories: ['/a', '/b'], mcpServers: [{ name: 'gh', instructions: 'Use {{it}}' }] },
      { cwd: '/repo', platform: 'darwin', additionalDirectories: [], mcpServers: [] },
      { cwd: '/repo', platform: 'darwin' },
    ],
  },
  {
    name: 'deep mix of blocks',
    template:
      '{{#each groups}}\n## {{title}}\n{{#with meta}}\n{{#if tags}}tags: {{#each tags}}{{@key}}={{this}} {{/each}}\n{{else}}\nno tags for {{../title}}\n{{/if}}\n{{/with}}\n{{#unless items}}\n(empty)\n{{/unless}}\n{{#each items}}\n- {{#if done}}[x]{{else}}[ ]{{/if}} {{text}}{{#if @last}}.{{/if}}\n{{/each}}\n{{else}}\nno groups\n{{/each}}',
    contexts: [
      {
        groups: [
          { title: 'A', meta: { tags: { x: 1, y: 2 } }, items: [{ done: true, text: 'one' }, { text: 'two' }] },
          { title: 'B', meta: {}, items: [] },
          { title: 'C' },
        ],
      },
      { groups: [] },
    ],
  },
];

const FALLBACK: Case[] = [
  { name: 'the lookup helper', template: '{{lookup map key}}', contexts: [{ map: { a: 'A' }, key: 'a' }, {}] },
  { name: 'a sub-expression', template: '{{#if (lookup flags "x")}}on{{else}}off{{/if}}', contexts: [{ flags: { x: 1 } }, { flags: {} }] },
  { name: 'block parameters', template: '{{#each xs as |x i|}}{{i}}={{x}} {{/each}}', contexts: [{ xs: ['a', 'b'] }] },
  { name: 'a hash on #each', template: '{{#each xs key="k"}}{{this}}{{/each}}', contexts: [{ xs: [1, 2] }] },
  { name: 'a section block', template: '{{#obj}}{{name}}{{/obj}}|{{^list}}none{{/list}}', contexts: [{ obj: { name: 'n' } }, { list: [1] }] },
  { name: 'a parent data variable', template: '{{#each a}}{{#each b}}{{@../index}}{{/each}}{{/each}}', contexts: [{ a: [{ b: [1] }, { b: [1, 2] }] }] },
  { name: 'an inline partial', template: '{{#*inline "p"}}P:{{name}}{{/inline}}{{> p}} {{> p name="hash"}}', contexts: [{ name: 'ctx' }] },
  { name: 'a literal in place of a name', template: '{{"name"}} {{1}}', contexts: [{ name: 'N', 1: 'one' }] },
  { name: 'an unregistered helper (Handlebars throws)', template: '{{upper name}}', contexts: [{ name: 'n' }] },
];

function expectSameOutput(template: string, contexts: Context[]): void {
  const render = compileThunk(template);
  for (const ctx of contexts) {
    const expected = handlebarsOutcome(template, ctx);
    expect(thunkOutcome(render, ctx), `context ${String(contexts.indexOf(ctx))}`).toEqual(expected);
  }
}

describe('thunks render what Handlebars renders', () => {
  it('covers at least 40 templates', () => {
    expect(FAST.length + FALLBACK.length).toBeGreaterThanOrEqual(40);
  });

  describe('fast path', () => {
    it.each(FAST.map((c) => [c.name, c] as const))('%s', (_name, { template, contexts }) => {
      expect(usesFastPath(template)).toBe(true);
      expectSameOutput(template, contexts);
    });
  });

  describe('Handlebars runtime fallback', () => {
    it.each(FALLBACK.map((c) => [c.name, c] as const))('%s', (_name, { template, contexts }) => {
      expect(usesFastPath(template)).toBe(false);
      expectSameOutput(template, contexts);
    });
  });

  it('keeps own-property lookups exact for null prototypes, own __proto__ keys and a polluted Object.prototype', () => {
    const template = '{{polluted}}|{{o.polluted}}|{{#each xs}}{{polluted}}{{/each}}|{{n.a}}|{{j.__proto__.x}}|{{@root.polluted}}';
    const ctx = { o: { a: 1 }, xs: [{}, { polluted: 'own' }], n: Object.assign(Object.create(null), { a: 'null proto' }), j: JSON.parse('{"__proto__": {"x": "own __proto__"}}') };
    const render = compileThunk(template);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['polluted'] = 'INHERITED';
    try {
      const output = render(ctx);
      expect(output).not.toContain('INHERITED');
      expect({ output }).toEqual(handlebarsOutcome(template, ctx));
    } finally {
      delete prototype['polluted'];
    }
    expect(render(ctx)).toBe('||own|null proto|own __proto__|');
  });

  it('renders the fallback through Handlebars itself (not by accident of an empty output)', () => {
    expect(compileThunk('{{#each xs as |x|}}{{x}};{{/each}}')({ xs: [1, 2] })).toBe('1;2;');
  });
});

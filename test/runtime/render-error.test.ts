/**
 * A context value that cannot become text is a RenderError naming the section
 * and the variable, never a bare TypeError, on both code generation paths
 * (fast path and Handlebars fallback), through a bundle built and loaded the
 * way a service loads it. What can become text renders as Handlebars renders it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Handlebars from 'handlebars';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import {
  createSectionCache,
  getSystemPrompt,
  loadBundle,
  loadBundleModule,
  MissingVariableError,
  RenderError,
  type Bundle,
} from '../../compiler/runtime/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const FRONTMATTER = '---\nkind: dynamic\ninputs: [x, a, b]\noptional: [a, b, list]\n---\n';
// `{{a}}{{b}}` first: Handlebars adds the two values with `+` before any text makes the output a string.
const FAST = '{{a}}{{b}}\nValue: {{x}}\n';
// Block parameters send a template down the Handlebars runtime path.
const SLOW = `${FAST}{{#each list as |item|}}{{item}}{{/each}}\n`;

let bundle: Bundle;
let dist: string;

beforeAll(async () => {
  const root = await tempDir('pb-render-error-');
  await writeTree(root, {
    'prompts/sections/fast.md': FRONTMATTER + FAST,
    'prompts/sections/slow.md': FRONTMATTER + SLOW,
    'prompts/profiles/fast.md': '---\nsections: [fast]\n---\n',
    'prompts/profiles/slow.md': '---\nsections: [slow]\n---\n',
  });
  // The slow section needs the Handlebars runtime, which only the JavaScript target has.
  const result = await buildProject({ root, cacheDir: null, targets: ['js'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  dist = path.join(root, 'dist');
  bundle = await loadBundle(dist);
});

async function render(profile: string, context: Record<string, unknown>): Promise<string> {
  const prompt = await getSystemPrompt(bundle, { profile, context, cache: createSectionCache() });
  return prompt.at(-1)!;
}

async function failure(profile: string, context: Record<string, unknown>): Promise<RenderError> {
  const error = await render(profile, context).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RenderError);
  return error as RenderError;
}

function cyclicToString(): object {
  const value = { toString: (): string => '' };
  value.toString = () => `(${String(value)})`;
  return value;
}

function deeplyNested(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

const HOSTILE: [string, () => unknown, RegExp][] = [
  ['an object whose toString is not a function', () => ({ toString: 'boom' }), /its toString is not a function/],
  ['a symbol', () => Symbol('s'), /it is a symbol/],
  ['an object whose toString throws', () => ({ toString: () => { throw new Error('nope'); } }), /converting it threw Error: nope/],
  ['a cycle through toString', cyclicToString, /converting it threw RangeError/],
  ['an array nested too deep to join', () => deeplyNested(100_000), /converting it threw RangeError/],
  ['an array holding a symbol', () => ['a', Symbol('s')], /converting it threw TypeError/],
  ['an object with no conversion methods', () => Object.create(null), /neither its valueOf nor its toString returns a primitive/],
  ['a Symbol.toPrimitive that is not a function', () => ({ [Symbol.toPrimitive]: 1 }), /its Symbol\.toPrimitive is not a function/],
  ['a Symbol.toPrimitive that returns a symbol', () => ({ [Symbol.toPrimitive]: () => Symbol('p') }), /it converts to a symbol/],
];

describe.each([
  ['fast path', 'fast', FAST],
  ['Handlebars fallback', 'slow', SLOW],
])('rendering a section (%s)', (_path, section, template) => {
  it('takes the path under test', async () => {
    const entry = bundle.manifest.profiles[section]!.sections[0]!;
    const thunk = await fs.readFile(path.join(dist, entry.file), 'utf8');
    expect(thunk.includes('Handlebars runtime fallback')).toBe(section === 'slow');
  });

  it.each(HOSTILE)('%s is a RenderError naming section and variable', async (_name, value, why) => {
    const error = await failure(section, { x: value() });
    expect(error).toMatchObject({ name: 'RenderError', section, variable: 'x' });
    expect(error.message).toMatch(new RegExp(`^dynamic section "${section}": the value of "x" cannot become text \\(`));
    expect(error.message).toMatch(why);
    expect(error.message).not.toContain('\n');
  });

  it('an element of a list that cannot become text names the expression it is printed by', async () => {
    if (section === 'fast') return; // only the fallback template iterates `list`
    const error = await failure(section, { x: 'ok', list: ['a', Symbol('s')] });
    expect(error).toMatchObject({ section, variable: 'item' });
  });

  it('a throwing getter, a BigInt added to a number, a null context: RenderError with the cause kept', async () => {
    const getter = await failure(section, {
      get x(): never {
        throw new TypeError('getter says no');
      },
    });
    expect(getter).toMatchObject({ section, variable: undefined });
    expect(getter.message).toBe(`dynamic section "${section}" failed to render: TypeError: getter says no`);
    expect((getter.cause as Error).message).toBe('getter says no');
    // `{{a}}{{b}}` adds the two values, as Handlebars does; 1 + 2n has no result.
    expect((await failure(section, { x: 'ok', a: 1, b: 2n })).message).toMatch(/failed to render: TypeError: Cannot mix BigInt/);
    expect(() => bundle.profiles.get(section)!.dynamicSections[0]!.render(null as never)).toThrow(RenderError);
  });

  it('a missing variable is still a MissingVariableError, which is a RenderError', async () => {
    const error = await failure(section, {});
    expect(error).toBeInstanceOf(MissingVariableError);
    expect(error).toMatchObject({ section, variable: 'x' });
  });

  it('what can become text renders exactly as Handlebars renders it', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const cyclicList: unknown[] = [1];
    cyclicList.push(cyclicList);
    const contexts: Record<string, unknown>[] = [
      { x: 12n },
      { x: 'x', a: 1n, b: 2n },
      { x: cyclic },
      { x: cyclicList },
      { x: { toString: () => 'custom' }, a: { valueOf: () => 1 }, b: 2 },
      { x: new Date(0), a: { valueOf: () => null }, b: '' },
      { x: '{{a}} looks like a template', a: 'SECRET' },
      { x: [1, [2, null]], a: true, b: true },
    ];
    for (const context of contexts) {
      const expected = Handlebars.compile(template, { noEscape: true })(context).replace(/\n+$/, '');
      expect(await render(section, context)).toBe(expected);
    }
    expect(await render(section, { x: '{{b}}' })).toBe('\nValue: {{b}}');
    // The value's own conversion runs once, as it does in Handlebars: the check hands its result on.
    const calls: string[] = [];
    const counted = { valueOf: () => (calls.push('valueOf'), 'v'), toString: () => (calls.push('toString'), 't') };
    expect(await render(section, { x: counted })).toBe('\nValue: v');
    expect(calls).toEqual(['valueOf']);
    expect(await render(section, { x: 'x', a: 1, b: 2 })).toBe('3\nValue: x');
  });
});

describe('the single-file bundle', () => {
  it('throws the same RenderError from its inlined thunks', async () => {
    // Its `slow` thunk was compiled by Handlebars: the single-file form is handed the runtime.
    const handlebars = ((await import('handlebars/runtime.js')) as { default: unknown }).default;
    const module = loadBundleModule(await import(pathToFileURL(path.join(dist, 'bundle.mjs')).href), { handlebars });
    for (const profile of ['fast', 'slow']) {
      const error = await getSystemPrompt(module, { profile, context: { x: { toString: 'boom' } }, cache: createSectionCache() }).catch(
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(RenderError);
      expect(error).toMatchObject({ section: profile, variable: 'x' });
    }
  });
});

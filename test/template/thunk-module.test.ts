import { describe, expect, it } from 'vitest';
import type { ThunkFactory } from '../../compiler/runtime/manifest.js';
import { createThunkRuntime, MissingVariableError } from '../../compiler/runtime/thunk-runtime.js';
import { generateThunkModule, type ThunkOptions } from '../../compiler/template/index.js';
import { HANDLEBARS_RUNTIME, handlebarsOutcome, instantiate, thunkOutcome } from './harness.js';

const ENV = '# Env\n- cwd: {{cwd}}\n{{#if model}}- model: {{model}}\n{{/if}}{{#each dirs}}- {{this}}\n{{/each}}';
const ENV_OPTIONS: ThunkOptions = { section: 'env-info', inputs: ['cwd', 'dirs', 'model'], optional: ['model'] };
const FALLBACK = '{{#each dirs as |dir|}}{{dir}}{{/each}} {{cwd}}';

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('generateThunkModule', () => {
  it.each([
    ['fast path', ENV],
    ['fallback', FALLBACK],
  ])('emits one default-exported factory and nothing else (%s)', (_path, template) => {
    const text = generateThunkModule(template, ENV_OPTIONS);
    // The single-file bundle inlines a thunk as a function body: it must start with the export and import nothing.
    expect(text).toMatch(/^export default function create\(rt\) \{\n/);
    expect(text.match(/\bexport\b/g)).toHaveLength(1);
    expect(text).not.toMatch(/\bimport\b|\brequire\(/);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('is deterministic', () => {
    expect(generateThunkModule(ENV, ENV_OPTIONS)).toBe(generateThunkModule(ENV, { ...ENV_OPTIONS, inputs: [...ENV_OPTIONS.inputs] }));
    expect(generateThunkModule(FALLBACK, ENV_OPTIONS)).toBe(generateThunkModule(FALLBACK, ENV_OPTIONS));
  });

  it('says in the module which path it took and why', () => {
    expect(generateThunkModule(ENV, ENV_OPTIONS)).not.toContain('rt.handlebars');
    expect(generateThunkModule(FALLBACK, ENV_OPTIONS)).toContain('Handlebars runtime fallback, because the template uses block parameters (as |dir|)');
  });

  it('carries only the helpers its code calls', () => {
    const text = generateThunkModule('Hi {{this.name}}', { section: 's', inputs: ['name'], optional: [] });
    expect(text).toContain('const own = ');
    expect(text).not.toMatch(/function (lp|lf|entries|push|truthy|present|amb)\(|const NC/);
  });

  it('refuses an invalid template, naming the position', () => {
    expect(() => generateThunkModule('a\n{{#if x}}', ENV_OPTIONS)).toThrow(/\(2:10\)/);
  });
});

describe.each([
  ['fast path', ENV],
  ['fallback', FALLBACK],
])('a thunk (%s)', (_path, template) => {
  const render = instantiate(generateThunkModule(template, ENV_OPTIONS));

  it('fails on a missing required variable, naming section and variable', () => {
    const error = caught(() => render({ dirs: [] }));
    expect(error).toBeInstanceOf(MissingVariableError);
    expect(error).toMatchObject({ section: 'env-info', variable: 'cwd' });
    expect((error as Error).message).toContain('"env-info"');
    expect((error as Error).message).toContain('"cwd"');
    expect(caught(() => render({ cwd: '/' }))).toMatchObject({ variable: 'dirs' });
  });

  it('checks the required variables before reading anything else', () => {
    const reads: string[] = [];
    const ctx = new Proxy({ cwd: '/', model: 'm' } as Record<string, unknown>, {
      get(target, key) {
        reads.push(String(key));
        return target[key as string];
      },
    });
    expect(() => render(ctx)).toThrow(MissingVariableError);
    expect(reads).toEqual(['cwd', 'dirs']);
  });

  it('renders a missing optional variable as Handlebars does, and takes null as present', () => {
    for (const ctx of [{ cwd: '/r', dirs: ['a'] }, { cwd: null, dirs: [] }]) {
      expect(thunkOutcome(render, ctx)).toEqual(handlebarsOutcome(template, ctx));
      expect(render(ctx)).not.toContain('null');
    }
  });

  it('prints values as data, never as templates', () => {
    expect(render({ cwd: '{{model}}', dirs: ['{{cwd}}'], model: 'SECRET' })).toContain('{{model}}');
    expect(render({ cwd: '{{model}}', dirs: ['{{cwd}}'], model: 'SECRET' })).toContain('{{cwd}}');
  });
});

describe('createThunkRuntime', () => {
  it('converts values as a noEscape template prints them', () => {
    const { str } = createThunkRuntime();
    expect([undefined, null, 0, false, '', 'a<b>&', [1, [2, null]], { a: 1 }, 12n].map(str)).toEqual([
      '',
      '',
      '0',
      'false',
      '',
      'a<b>&',
      '1,2,',
      '[object Object]',
      '12',
    ]);
    // Only the escaping path calls toHTML; noEscape output uses the string conversion.
    expect(str({ toHTML: () => 'html', toString: () => 'text' })).toBe('text');
  });

  it('gives each runtime its own Handlebars environment, where a host registers custom helpers', () => {
    const factory = new Function(
      generateThunkModule('{{upper name}}', { section: 's', inputs: ['name'], optional: [] }).replace(/^export default /, 'return '),
    )() as ThunkFactory;
    const withHelper = createThunkRuntime(HANDLEBARS_RUNTIME);
    (withHelper.handlebars as { registerHelper(name: string, fn: (s: string) => string): void }).registerHelper('upper', (s) =>
      s.toUpperCase(),
    );
    expect(factory(withHelper)({ name: 'shout' })).toBe('SHOUT');
    expect(() => factory(createThunkRuntime(HANDLEBARS_RUNTIME))({ name: 'shout' })).toThrow(/Missing helper: "upper"/);
  });

  it('throws MissingVariableError from missing()', () => {
    const rt = createThunkRuntime(HANDLEBARS_RUNTIME);
    expect(() => rt.missing('memory', 'memoryFiles')).toThrow(
      new MissingVariableError('memory', 'memoryFiles'),
    );
    expect(new MissingVariableError('a', 'b').name).toBe('MissingVariableError');
  });
});

/**
 * Templates are validated at build time (issue 12): what a bundle's runtime
 * cannot render — helpers it does not have, partials, decorators, built-in
 * helpers called the wrong way — is a positioned diagnostic in the file the
 * expression is written in, never a crash in `render`.
 */
import { describe, expect, it } from 'vitest';
import { buildProject } from '../../compiler/index.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const PROFILE = { 'prompts/profiles/p.md': '---\nsections: [a]\n---\n' };
/** Four frontmatter lines: the body starts on line 5. */
const DYNAMIC = '---\nkind: dynamic\ninputs: [x, y]\n---\n';

async function build(files: Record<string, string>) {
  const root = await tempDir();
  await writeTree(root, { ...PROFILE, ...files });
  // The default targets: what the build accepts, both runtimes render (python-target.test.ts compares them).
  return buildProject({ root, cacheDir: null, write: false });
}

async function errorsOf(body: string): Promise<string[]> {
  const result = await build({ 'prompts/sections/a.md': DYNAMIC + body });
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}

const AT = 'prompts/sections/a.md';

describe('template validation at build time', () => {
  it.each([
    ['an unknown helper', 'Hello {{nosuch x}}\n', [`template/unknown-helper ${AT}:5:7`]],
    ['an unknown block helper', 'a\n  {{#upper x}}b{{/upper}}\n', [`template/unknown-helper ${AT}:6:3`]],
    ['an unknown helper in a sub-expression, at its parenthesis', '{{#if (eq x 1)}}y{{/if}}\n', [`template/unknown-helper ${AT}:5:7`]],
    ['a sub-expression without arguments still calls a helper', '{{lookup x (y)}}\n', [`template/unknown-helper ${AT}:5:12`]],
    ['an unknown helper after {{else}}', '{{#if x}}a{{else}}{{shout y}}{{/if}}\n', [`template/unknown-helper ${AT}:5:19`]],
    ['a context value called as a helper', '{{x.format y}}\n', [`template/unknown-helper ${AT}:5:1`]],
    ['a helper named by a string literal', '{{"shout" x}}\n', [`template/unknown-helper ${AT}:5:1`]],
    ['the internal hook helperMissing', '{{helperMissing}}\n', [`template/unknown-helper ${AT}:5:1`]],
    ['a partial', 'x\n{{> header}}\n', [`template/partial ${AT}:6:1`]],
    ['a dynamic partial', '{{> (y) x}}\n', [`template/partial ${AT}:5:1`]],
    ['a partial block', '{{#> layout}}body{{/layout}}\n', [`template/partial ${AT}:5:1`]],
    ['a decorator', 'a {{* deco}}\n', [`template/decorator ${AT}:5:3`]],
    ['an inline partial (a decorator block)', '{{#*inline "p"}}x{{/inline}}\n', [`template/decorator ${AT}:5:1`]],
    ['#if without its argument', 'a\n{{#if}}b{{/if}}\n', [`template/helper-arity ${AT}:6:1`]],
    ['#if with only a hash', '{{#if includeZero=true}}b{{/if}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['#unless with two arguments', '{{#unless x y}}b{{/unless}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['#each without its argument', '{{#each}}b{{/each}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['#with with two arguments', '{{#with x y}}b{{/with}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['an inverse block without its argument', '{{^if}}b{{/if}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['else if without its argument', '{{#if x}}a{{else if}}b{{/if}}\n', [`template/helper-arity ${AT}:5:11`]],
    ['lookup with one argument', '{{lookup x}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['lookup with none', '{{lookup}}\n', [`template/helper-arity ${AT}:5:1`]],
    ['a block helper used inline', '{{if x}}\n', [`template/helper-form ${AT}:5:1`]],
    ['a block helper in a sub-expression', '{{lookup (each x) y}}\n', [`template/helper-form ${AT}:5:10`]],
    ['a bare block helper name', '- {{with}}\n', [`template/helper-form ${AT}:5:3`]],
    ['an inline helper used as a block', '{{#lookup x "a"}}b{{/lookup}}\n', [`template/helper-form ${AT}:5:1`]],
    [
      'every problem in one build',
      '{{nosuch x}}\n{{> p}}\n{{#if}}{{/if}}\n',
      [`template/unknown-helper ${AT}:5:1`, `template/partial ${AT}:6:1`, `template/helper-arity ${AT}:7:1`],
    ],
  ])('%s', async (_name, body, expected) => {
    expect(await errorsOf(body)).toEqual(expected);
  });

  it('messages say what is wrong and how to fix it', async () => {
    const result = await build({ 'prompts/sections/a.md': `${DYNAMIC}{{nosuch x}}{{> p}}{{* d}}{{#if}}{{/if}}{{if x}}\n` });
    const byRule = Object.fromEntries(result.diagnostics.map((d) => [d.rule, d]));
    expect(byRule['template/unknown-helper']).toMatchObject({ message: "unknown helper 'nosuch'", note: expect.stringContaining('if, unless, each, with, lookup, log') });
    expect(byRule['template/partial']).toMatchObject({ message: 'partials are not supported: {{> p}}', note: expect.stringContaining('include') });
    expect(byRule['template/decorator']!.message).toBe('decorators are not supported: {{*d}}');
    expect(byRule['template/helper-arity']!.message).toBe('#if needs exactly one argument, got 0');
    expect(byRule['template/helper-form']!.message).toBe("'if' is a block helper: write {{#if …}}…{{/if}}");
    expect(byRule['template/unknown-helper']!.excerpt).toBe('{{nosuch x}}{{> p}}{{* d}}{{#if}}{{/if}}{{if x}}');
  });

  it('points into the included fragment the expression is written in', async () => {
    const result = await build({
      'prompts/sections/a.md': `${DYNAMIC}Intro {{x}}\n@../fragments/f.md\n`,
      'prompts/fragments/f.md': 'Shared text\n  then {{#if}}oops{{/if}} and {{shout y}}\n',
    });
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
    expect(errors).toEqual(['template/helper-arity prompts/fragments/f.md:2:8', 'template/unknown-helper prompts/fragments/f.md:2:31']);
  });

  it('what the runtime can render still builds', async () => {
    const body = [
      '{{x}} {{x.y}} {{this.x}} {{@root.x}} {{log x}} {{log}} {{lookup x "a"}} {{lookup x y}}',
      '{{#if x}}a{{else if y}}b{{else}}c{{/if}}{{#unless x}}u{{/unless}}{{^if x}}n{{/if}}',
      '{{#each x}}{{@index}}{{this}}{{../y}}{{else}}none{{/each}}{{#with x}}{{y}}{{/with}}',
      '{{#if (lookup x "a") includeZero=true}}z{{/if}}{{#each (lookup x y)}}{{.}}{{/each}}',
      '{{#x}}section{{/x}}{{^y}}inverse{{/y}}{{#x.y}}dotted{{/x.y}}',
      // A block parameter is a value: Handlebars never calls it, whatever follows it.
      '{{#each x as |item|}}{{item y}}{{/each}}',
    ].join('\n');
    const result = await build({ 'prompts/sections/a.md': `${DYNAMIC}${body}\n` });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

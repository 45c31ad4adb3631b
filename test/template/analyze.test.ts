import { describe, expect, it } from 'vitest';
import { analyzeTemplate } from '../../compiler/template/index.js';

function names(source: string): string[] {
  const analysis = analyzeTemplate(source);
  if (!analysis.ok) throw new Error(`unexpected error: ${analysis.error.message}`);
  return analysis.variables.map((v) => v.name);
}

const ENV = `# Environment
- Working directory: {{cwd}}
- Platform: {{platform}}
{{#if additionalDirectories}}
- Also: {{#each additionalDirectories}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
{{#each mcpServers}}
## {{name}}
{{instructions}}
{{/each}}
`;

describe('analyzeTemplate', () => {
  it('reports the first occurrence of each top-level variable, with 1-based positions of the name', () => {
    expect(analyzeTemplate(ENV)).toMatchObject({
      ok: true,
      variables: [
        { name: 'cwd', line: 2, column: 24 },
        { name: 'platform', line: 3, column: 15 },
        { name: 'additionalDirectories', line: 4, column: 7 },
        { name: 'mcpServers', line: 7, column: 9 },
      ],
    });
  });

  it('lists variables in source order, each once', () => {
    expect(analyzeTemplate('{{b}} {{a}}\n{{b}} {{#if a}}{{c}}{{/if}}')).toMatchObject({
      ok: true,
      variables: [
        { name: 'b', line: 1, column: 3 },
        { name: 'a', line: 1, column: 9 },
        { name: 'c', line: 2, column: 18 },
      ],
    });
  });

  it.each([
    ['a dotted path reads its first segment', '{{a.b.c}} {{this.d}} {{./e.f}}', ['a', 'd', 'e']],
    ['#if and #unless keep the top-level context', '{{#if x}}{{y}}{{else}}{{z}}{{/if}}{{#unless u}}{{w}}{{/unless}}', ['x', 'y', 'z', 'u', 'w']],
    ['names inside #each and #with are the item\'s', '{{#each xs}}{{name}}{{this.id}}{{/each}}{{#with o}}{{p}}{{/with}}', ['xs', 'o']],
    ['#with this keeps the top-level context', '{{#with this}}{{a}}{{#each xs}}{{b}}{{../c}}{{/each}}{{/with}}', ['a', 'xs', 'c']],
    ['an #each inverse runs on the top-level context', '{{#each xs}}{{name}}{{else}}{{fallback}}{{/each}}', ['xs', 'fallback']],
    ['../ climbs back to the top level', '{{#each xs}}{{../prefix}}{{#with item}}{{../../deep}}{{/with}}{{/each}}', ['xs', 'prefix', 'deep']],
    ['../ past the top level reads nothing', '{{../x}}{{#with o}}{{../../y}}{{/with}}', ['o']],
    ['@root reaches the top level from anywhere', '{{#each xs}}{{@root.title}}{{/each}}{{@root}}', ['xs', 'title']],
    ['this and data variables are not variables', '{{this}}{{.}}{{#each xs}}{{@index}}{{@key}}{{@first}}{{@last}}{{/each}}{{@index}}', ['xs']],
    ['built-in helper names are not variables, their parameters are', '{{lookup map key}}{{log level}}{{#with w}}{{/with}}', ['map', 'key', 'level', 'w']],
    ['a custom helper\'s name is not a variable, its arguments are', '{{upper name}} {{join list sep=separator}}', ['name', 'list', 'separator']],
    ['a function called from a dotted path is read from the context', '{{fmt.date when}}', ['fmt', 'when']],
    ['sub-expressions', '{{#if (eq a (lookup b c))}}x{{/if}}', ['a', 'b', 'c']],
    ['block parameters are not variables', '{{#each xs as |x i|}}{{x}}{{i}}{{x.y}}{{this.x}}{{/each}}', ['xs']],
    ['a section block reads its name and renders on it', '{{#obj}}{{name}}{{/obj}}{{^missing}}{{shown}}{{/missing}}', ['obj', 'missing', 'shown']],
    ['partials: the context and hash are read, the name is not', '{{> header ctx}}{{> footer year=y}}{{> (pick kind)}}', ['ctx', 'y', 'kind']],
    ['comments and raw text read nothing', '{{! {{x}} }}{{!-- {{y}} --}}text', []],
  ])('%s', (_name, source, expected) => {
    expect(names(source)).toEqual(expected);
  });

  it.each([
    ['an unclosed block: where the template ends', '{{#each x}}\nabc', { line: 2, column: 4, message: 'unexpected end of template, expecting {{else …}} or {{else}} or {{/…}}' }],
    ['a mismatched close: at the opening name', 'ok\n  {{#if x}}{{/each}}', { line: 2, column: 6, message: "if doesn't match each" }],
    ['an unterminated mustache: at the name left open', 'Hello {{name', { line: 1, column: 9, message: 'unexpected invalid text' }],
    ['a stray closing brace', 'a\n{{x}}}', { line: 2, column: 4, message: /^unexpected }}}/ }],
    ['unrecognised text', 'a\n  {{!-- never closed', { line: 2, column: 3, message: 'unrecognised text' }],
    ['an error found only by the compiler', 'x\n{{> partial a b}}', { line: 2, column: 1, message: 'Unsupported number of partial arguments: 2' }],
  ])('reports a syntax error with its position: %s', (_name, source, expected) => {
    const analysis = analyzeTemplate(source);
    expect(analysis.ok).toBe(false);
    if (analysis.ok) return;
    const { message, ...position } = analysis.error;
    expect(position).toEqual({ line: expected.line, column: expected.column });
    if (typeof expected.message === 'string') expect(message).toBe(expected.message);
    else expect(message).toMatch(expected.message);
    expect(message).not.toContain('\n');
  });
});

/**
 * The built-in rules over one project built in process, each both ways: what
 * it must find (and where: in the file it was written, an included fragment
 * naming itself) and what it must leave alone — code, a verbatim section, a
 * tag another section of a profile closes, a budget kept, version numbers,
 * ratios and ports.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../compiler/index.js';
import { lintProject } from '../../compiler/pipeline/lint-project.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const FENCE = '```';
const FILES: Record<string, string> = {
  'prompts/sections/dated.md': [
    'Today is Monday. The date is 2025-01-15 and the time 14:30 UTC.',
    'Request 123e4567-e89b-42d3-a456-426614174000, built at 1736899200.',
    '@../fragments/when.md',
    '',
    'Code keeps its own: `2024-01-01` and',
    '',
    `${FENCE}\ncreated: 2023-05-05T10:00:00Z\n${FENCE}`,
    '',
    'Version 3.1.4, a ratio of 16:9, port 8080 and issue #2025 are no values.',
    '',
  ].join('\n'),
  'prompts/fragments/when.md': 'Released March 3, 2025.\n',
  'prompts/sections/ported.md': `Hello \${user.name}, run $ARGUMENTS. <%= title %> {% if x %}x{% endif %} %{name}\n\n${FENCE}sh\necho \${HOME} $ARGUMENTS\n${FENCE}\n`,
  'prompts/sections/verbatim.md': '---\nverbatim: true\n---\nKept: ${kept} and <%= kept %>.\n',
  'prompts/sections/open.md': '<rules>\n\nBe brief.\n',
  'prompts/sections/close.md': 'Be kind.\n\n</rules>\n',
  'prompts/sections/lonely.md': '<example>\nA\n</examples>\n\n`<code>` and List<T> and <br> and <x/> and <b>bold</b>\n',
  'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd, unused]\noptional: [maybe, lang]\n---\nDir: {{cwd}} {{#if lang}}{{lang}}{{/if}}\n',
  'prompts/sections/long.md': `---\nmaxTokens: 5\n---\n${'A long line of words that goes on. '.repeat(4)}\n`,
  'prompts/sections/short.md': '---\nmaxTokens: 1000\n---\nShort.\n',
  'prompts/sections/odd-budget.md': '---\nmaxTokens: lots\n---\nOdd.\n',
  'prompts/sections/big-dynamic.md': `---\nkind: dynamic\ninputs: [name]\n---\n${'Hello {{name}}, this varies per user. '.repeat(40)}\n`,
  'prompts/profiles/default.md': '---\nsections: [dated, ported, verbatim, open, close, lonely, long, short, odd-budget, env]\nmaxTokens: 50\ncacheWarning: false\n---\n',
  'prompts/profiles/open-only.md': '---\nsections: [open]\ncacheWarning: false\n---\n',
  'prompts/profiles/mostly-dynamic.md': '---\nsections: [short, big-dynamic]\n---\n',
  // The same, said to be cached as meant: no info.
  'prompts/profiles/quiet.md': '---\nsections: [short, big-dynamic]\ncacheWarning: false\n---\n',
  // Mostly dynamic, but too little to move: no info.
  'prompts/profiles/tiny.md': '---\nsections: [short, env]\n---\n',
  'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nLast updated 2024-06-01. Use $ARGUMENTS.\n',
};

let found: Diagnostic[];
const of = (rule: string) => found.filter((d) => d.rule === rule).map((d) => `${d.severity} ${d.file}:${d.line}:${d.column} ${d.message}`);

beforeAll(async () => {
  const root = await tempDir('pb-lint-');
  await writeTree(root, FILES);
  found = (await lintProject({ root, cacheDir: null, targets: ['js'] })).diagnostics;
});

describe('built-in rules', () => {
  it('static/volatile-value: dates, times, the weekday, timestamps and UUIDs outside code, in static sections and agents', () => {
    expect(of('static/volatile-value')).toEqual([
      "warning agents/helper.md:5:14 a date in agent 'helper': '2024-06-01'",
      "warning prompts/fragments/when.md:1:10 a date in static section 'dated': 'March 3, 2025'",
      "warning prompts/sections/dated.md:1:1 the weekday in static section 'dated': 'Today is Monday'",
      "warning prompts/sections/dated.md:1:30 a date in static section 'dated': '2025-01-15'",
      "warning prompts/sections/dated.md:1:54 a time of day in static section 'dated': '14:30 UTC'",
      "warning prompts/sections/dated.md:2:9 a UUID in static section 'dated': '123e4567-e89b-42d3-a456-426614174000'",
      "warning prompts/sections/dated.md:2:56 a Unix timestamp in static section 'dated': '1736899200'",
    ]);
  });

  it('static/leftover-interpolation: placeholders of other template languages outside code, not in a verbatim section', () => {
    expect(of('static/leftover-interpolation')).toEqual([
      "warning agents/helper.md:5:30 Claude Code's command arguments in agent 'helper': '$ARGUMENTS'",
      "warning prompts/sections/ported.md:1:7 a JavaScript template literal's placeholder in static section 'ported': '${user.name}'",
      "warning prompts/sections/ported.md:1:25 Claude Code's command arguments in static section 'ported': '$ARGUMENTS'",
      "warning prompts/sections/ported.md:1:37 an EJS or ERB tag in static section 'ported': '<%= title %>'",
      "warning prompts/sections/ported.md:1:50 a Jinja or Liquid tag in static section 'ported': '{% if x %}'",
      "warning prompts/sections/ported.md:1:61 a Jinja or Liquid tag in static section 'ported': '{% endif %}'",
      "warning prompts/sections/ported.md:1:73 a format placeholder in static section 'ported': '%{name}'",
    ]);
  });

  it('markup/unbalanced-tag: a tag left open or closing none, unless another section of a profile balances it', () => {
    expect(of('markup/unbalanced-tag')).toEqual([
      "warning prompts/sections/lonely.md:1:1 <example> in section 'lonely' is never closed",
      "warning prompts/sections/lonely.md:3:1 </examples> in section 'lonely' closes a tag never opened",
    ]);
  });

  it('template/unused-input: a declared input, required or optional, that the template never reads, at its declaration', () => {
    expect(of('template/unused-input')).toEqual([
      "warning prompts/sections/env.md:3:15 section 'env' declares input 'unused' but its template never reads it",
      "warning prompts/sections/env.md:4:12 section 'env' declares input 'maybe' but its template never reads it",
    ]);
  });

  it('section/token-budget: a section or profile over its maxTokens; a budget that is no number is a field error', () => {
    expect(of('section/token-budget')).toEqual([
      expect.stringMatching(/^error prompts\/profiles\/default\.md:3:1 profile 'default' is ~\d+ tokens for claude-sonnet, over its maxTokens: 50$/),
      expect.stringMatching(/^error prompts\/sections\/long\.md:2:1 section 'long' is ~\d+ tokens for claude-sonnet, over its maxTokens: 5$/),
    ]);
    expect(of('frontmatter/invalid-field')).toEqual(["error prompts/sections/odd-budget.md:2:1 'maxTokens' must be a whole number above 0 (got \"lots\")"]);
  });

  it('profile/small-static-share: an info for a profile whose static prefix is under half its text', () => {
    expect(of('profile/small-static-share')).toEqual([expect.stringMatching(/^info prompts\/profiles\/mostly-dynamic\.md:1:1 profile 'mostly-dynamic': its static prefix is \d+ % of its text/)]);
  });
});

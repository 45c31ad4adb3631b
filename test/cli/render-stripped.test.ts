/**
 * `render --show-stripped` (docs/authoring.md#comments, no silent text loss): a marker line
 * where each comment was removed, naming the file and line it was written
 * at — in an included fragment, the fragment's — and nothing else changed;
 * no marker where comments are kept. A dynamic section's comments are named
 * under its heading, not placed: their offsets are in the template.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const RULES = 'Café rules.\n\n<!-- own note -->\n\nMore rules.\n@../fragments/shared.md\nLast.\n<!-- trailing -->\n';
const SHARED = 'Shared.\n<!-- fragment note -->\nAfter.\n<!-- fragment end -->\n';

const TREE = {
  'prompts/sections/rules.md': RULES,
  'prompts/fragments/shared.md': SHARED,
  'prompts/sections/literal.md': '---\nverbatim: true\n---\nKeep <!-- inline -->\n\n<!-- literal -->\n',
  'prompts/sections/kept.md': '---\ncomments: keep\n---\n<!-- for the model -->\nKept.\n',
  // Two texts that read the same, one of which lost a comment: which one a part is, and so where, is not known.
  'prompts/sections/twin-a.md': 'Twin.\n<!-- gone -->\n',
  'prompts/sections/twin-b.md': 'Twin.\n',
  'prompts/sections/greet.md': '---\nkind: dynamic\ninputs: [who]\n---\n<!-- about greet -->\nHello {{who}}.\n',
  'prompts/profiles/default.md': '---\nsections: [rules, literal, kept, twin-a, twin-b, greet]\ncacheWarning: false\n---\n',
  'prompts/profiles/proactive.md': '---\nsections: [kept]\ncacheWarning: false\n---\n',
  'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nHelp well.\n<!-- agent note -->\n',
};

const MARKER = /^⟪stripped.*⟫$/;

describe('render --show-stripped', () => {
  it('marks each removed comment where it was, with its file and line; nothing else changes', async () => {
    const root = await tempDir('pb-render-stripped-');
    await writeTree(root, { ...TREE, 'context.json': '{"who":"you"}' });
    expect((await runCliInProcess(['build', '--root', root, '--no-cache'])).code).toBe(0); // setup: render is under test
    const render = async (...flags: string[]) => {
      const run = await runCli(['render', '--root', root, '--cwd', root, '--context', path.join(root, 'context.json'), ...flags], {
        env: { GIT_CEILING_DIRECTORIES: path.dirname(root), HOME: root },
      });
      expect(run.stderr).toBe('');
      return run.stdout;
    };
    const systemPrompt = (out: string) => out.slice(0, out.indexOf('━━ user context'));

    const plain = systemPrompt(await render());
    const marked = systemPrompt(await render('--show-stripped'));
    expect(marked).toContain(
      [
        '── rules (static) ──',
        'Café rules.',
        '',
        '⟪stripped: HTML comment, 19 bytes, prompts/sections/rules.md:3⟫',
        'More rules.',
        'Shared.',
        '⟪stripped: HTML comment, 23 bytes, prompts/fragments/shared.md:2⟫',
        'After.',
        // Removed with the fragment's final newline, which its includer's line break follows.
        '⟪stripped: HTML comment, 22 bytes, prompts/fragments/shared.md:4⟫',
        // Removed among the final newlines the runtime trims: at the end of the text.
        'Last.',
        '⟪stripped: HTML comment, 18 bytes, prompts/sections/rules.md:8⟫',
        '── literal (static) ──',
      ].join('\n'),
    );
    expect(marked).toContain('── greet (dynamic, cached) ──\n⟪stripped from the template, before it rendered: HTML comment, 21 bytes, prompts/sections/greet.md:5⟫\nHello you.\n');
    // The markers are all that was added: verbatim and `comments: keep` texts have none.
    const markers = marked.split('\n').filter((line) => MARKER.test(line));
    const twin = ' ──\n⟪stripped?: several texts read like this one, not all with the same HTML comments removed; where is not shown (inspect --json lists each)⟫\nTwin.\n';
    expect(marked.split(twin)).toHaveLength(3);
    expect(markers).toHaveLength(7);
    expect(marked.split('\n').filter((line) => !MARKER.test(line)).join('\n')).toBe(plain);

    const json = JSON.parse(await render('--show-stripped', '--json')) as { system: string[]; stripped: unknown };
    expect(json.stripped).toEqual([
      {
        part: 0,
        label: 'rules (static)',
        in: 'text',
        at: [
          // UTF-8 bytes into the part, as in the source maps: `é` is two.
          { offset: Buffer.byteLength('Café rules.\n\n'), file: 'prompts/sections/rules.md', line: 3, bytes: 19 },
          { offset: Buffer.byteLength('Café rules.\n\nMore rules.\nShared.\n'), file: 'prompts/fragments/shared.md', line: 2, bytes: 23 },
          { offset: Buffer.byteLength('Café rules.\n\nMore rules.\nShared.\nAfter.'), file: 'prompts/fragments/shared.md', line: 4, bytes: 22 },
          { offset: Buffer.byteLength(json.system[0]!), file: 'prompts/sections/rules.md', line: 8, bytes: 18 },
        ],
      },
      { part: 3, label: expect.stringMatching(/^twin-/), in: 'ambiguous' },
      { part: 4, label: expect.stringMatching(/^twin-/), in: 'ambiguous' },
      { part: 6, label: 'greet (dynamic, cached)', in: 'template', template: expect.stringMatching(/^dynamic\/greet\.[0-9a-f]{8}\.hbs$/), at: [{ offset: 0, file: 'prompts/sections/greet.md', line: 5, bytes: 21 }] },
    ]);

    // Under the proactive heading, the agent's comment is placed in its prompt, not in the heading.
    expect(systemPrompt(await render('--show-stripped', '--agent', 'helper', '--proactive'))).toContain(
      '── agent: helper (proactive) ──\n# Custom Agent Instructions\nHelp well.\n⟪stripped: HTML comment, 20 bytes, agents/helper.md:6⟫\n',
    );
  });

  it('a bundle from before positions were recorded says what went, not where', async () => {
    const root = await tempDir('pb-render-stripped-old-');
    await writeTree(root, { 'prompts/sections/rules.md': RULES, 'prompts/fragments/shared.md': SHARED, 'prompts/profiles/default.md': TREE['prompts/profiles/default.md'].replace(', literal, kept, twin-a, twin-b, greet', '') });
    expect((await runCliInProcess(['build', '--root', root, '--no-cache'])).code).toBe(0); // setup: render is under test
    const file = path.join(root, 'dist/manifest.json');
    const manifest = JSON.parse(await fs.readFile(file, 'utf8')) as Manifest;
    delete manifest.profiles.default!.sections[0]!.stripped!.at;
    await fs.writeFile(file, JSON.stringify(manifest));
    const run = await runCli(['render', '--root', root, '--cwd', root, '--show-stripped'], { env: { GIT_CEILING_DIRECTORIES: path.dirname(root), HOME: root } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('── rules (static) ──\n⟪stripped: 4 HTML comments, 82 bytes; this bundle does not record where (rebuild it to see)⟫\nCafé rules.\n\nMore rules.\n');
  });
});

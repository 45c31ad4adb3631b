/**
 * `diff`'s text and Markdown outputs on two builds whose changed texts hold
 * what breaks naive Markdown: backticks and fences, pipes, HTML and
 * `</details>`. The Markdown is parsed back (remark-parse with GFM, as
 * GitHub reads it) and must have exactly the intended structure.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Code, Html, Root, Table } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../compiler/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const TRICKY_NEW = 'Use `inline` code.\n| a | b | c |\n```js\nlet x = 1;\n```\n<b>bold</b> </details> ````\n';

let root: string;
let manifests: { old: Manifest; new: Manifest };

beforeAll(async () => {
  root = await tempDir('pb-diff-formats-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a coding agent.\nKeep answers short.\n',
    'prompts/sections/tricky.md': 'Use `inline` code.\n| a | b |\n',
    'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro, tricky, env]\n---\n',
    'prompts/profiles/simple.md': '---\ncacheWarning: false\nsections: [intro]\n---\n',
    'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nYou help.\n',
  });
  await build('old');
  await writeTree(root, {
    'prompts/sections/tricky.md': TRICKY_NEW,
    'prompts/sections/env.md': '---\nkind: dynamic\ninputs: [cwd, shell]\n---\nWorking directory: {{cwd}}\nShell: {{shell}}\n',
    'agents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nYou help, <i>briefly</i> | always.\n',
  });
  await build('new');
  const read = async (dir: string) => JSON.parse(await fs.readFile(path.join(root, dir, 'manifest.json'), 'utf8')) as Manifest;
  manifests = { old: await read('old'), new: await read('new') };
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The bundles compared are setup, built by the CLI's own code in this process: `diff` is what runs as a user runs it. */
async function build(out: string): Promise<void> {
  const run = await runCliInProcess(['build', '--root', root, '--out', out, '--no-cache']);
  expect(run.code, run.stderr).toBe(0);
}

const short = (side: 'old' | 'new', profile: string) => manifests[side].profiles[profile]!.staticPrefixHash.slice(0, 12);

describe('prompt-build diff (text)', () => {
  it('prints the summary, then a unified diff per changed text, with its side of the boundary', async () => {
    const run = await runCli(['diff', 'old', 'new'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    const tokens = (side: 'old' | 'new') => manifests[side].profiles.default!.staticTokens;
    expect(run.stdout).toBe(
      [
        'prompt-build diff old → new',
        '⚠ static prefix changed — global prompt-cache bust: default',
        '',
        `profile default: changed · ⚠ static prefix ${short('old', 'default')} → ${short('new', 'default')} · static tokens ${tokens('old')} → ${tokens('new')} (+${tokens('new') - tokens('old')})`,
        'unchanged profiles: simple',
        '',
        'section env: changed · dynamic (cached), after the boundary · bytes 27 → 44 (+17)',
        '--- old/env',
        '+++ new/env',
        '@@ -1,1 +1,2 @@',
        ' Working directory: {{cwd}}',
        '+Shell: {{shell}}',
        '',
        'section tricky: changed · static, before the boundary · bytes 29 → 82 (+53)',
        '--- old/tricky',
        '+++ new/tricky',
        '@@ -1,2 +1,6 @@',
        ' Use `inline` code.',
        '-| a | b |',
        '+| a | b | c |',
        '+```js',
        '+let x = 1;',
        '+```',
        '+<b>bold</b> </details> ````',
        '',
        'agent helper: changed (prompt)',
        '--- old/helper',
        '+++ new/helper',
        '@@ -1,1 +1,1 @@',
        '-You help.',
        '+You help, <i>briefly</i> | always.',
        '',
      ].join('\n'),
    );
  });

  it('says so when nothing changed', async () => {
    const run = await runCli(['diff', 'old', 'old'], { cwd: root });
    expect(run.stdout).toBe('prompt-build diff old → old\nstatic prefixes unchanged — the global prompt cache keeps hitting\nNo changes: both bundles hold the same prompts.\n');
  });
});

describe('prompt-build diff --fail-on-static-change', () => {
  it('exits 1 when a static prefix hash changed, in every format, and 0 when none did', async () => {
    for (const format of ['text', 'markdown', 'json']) {
      expect((await runCli(['diff', 'old', 'new', '--format', format, '--fail-on-static-change'], { cwd: root })).code).toBe(1);
    }
    expect((await runCli(['diff', 'old', 'new'], { cwd: root })).code).toBe(0);
    expect((await runCli(['diff', 'old', 'old', '--fail-on-static-change'], { cwd: root })).code).toBe(0);
  });

  it('passes a change of the dynamic tail alone', async () => {
    const copy = path.join(root, 'dynamic-only');
    await fs.cp(path.join(root, 'old'), copy, { recursive: true });
    await writeTree(root, { 'prompts/sections/tricky.md': 'Use `inline` code.\n| a | b |\n' });
    await build('dynamic-only');
    const run = await runCli(['diff', 'old', 'dynamic-only', '--fail-on-static-change'], { cwd: root });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('section env: changed');
    await writeTree(root, { 'prompts/sections/tricky.md': TRICKY_NEW });
  });
});

describe('prompt-build diff --format markdown', () => {
  let markdown: string;
  let tree: Root;
  beforeAll(async () => {
    const run = await runCli(['diff', 'old', 'new', '--format', 'markdown'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    markdown = run.stdout;
    tree = unified().use(remarkParse).use(remarkGfm).parse(markdown);
  });

  const shape = (node: Root['children'][number]) => (node.type === 'heading' ? `h${node.depth}` : node.type);

  it('parses back to the intended blocks: headings, summary, tables, then one details block per changed text', () => {
    expect(tree.children.map(shape)).toEqual([
      'h3', 'paragraph',
      'h4', 'table', 'paragraph',
      'h4', 'table',
      'h4', 'table',
      'paragraph',
      'h4',
      'html', 'code', 'html',
      'html', 'code', 'html',
      'html', 'code', 'html',
    ]);
    const html = tree.children.filter((n): n is Html => n.type === 'html').map((n) => n.value);
    expect(html).toEqual([
      '<details><summary>section <code>env</code> (changed)</summary>',
      '</details>',
      '<details><summary>section <code>tricky</code> (changed)</summary>',
      '</details>',
      '<details><summary>agent <code>helper</code> (changed)</summary>',
      '</details>',
    ]);
  });

  it('keeps each diff whole in its code block, backticks, pipes, HTML and </details> included', () => {
    const codes = tree.children.filter((n): n is Code => n.type === 'code');
    expect(codes.map((c) => c.lang)).toEqual(['diff', 'diff', 'diff']);
    expect(codes[1]!.value).toBe(
      [
        '--- old/section tricky',
        '+++ new/section tricky',
        '@@ -1,2 +1,6 @@',
        ' Use `inline` code.',
        '-| a | b |',
        '+| a | b | c |',
        '+```js',
        '+let x = 1;',
        '+```',
        '+<b>bold</b> </details> ````',
      ].join('\n'),
    );
    expect(codes[2]!.value).toContain('+You help, <i>briefly</i> | always.');
    // The fence is longer than any run of backticks inside.
    expect(markdown).toContain('\n`````diff\n--- old/section tricky');
  });

  it('summarises each changed profile: hash change, tokens and warm cost per 1,000 requests before and after', () => {
    const profiles = tree.children.find((n): n is Table => n.type === 'table')!;
    const cells = (row: number) => profiles.children[row]!.children.map((cell) => cell.children.map((c) => ('value' in c ? c.value : '')).join(''));
    expect(cells(0)).toEqual(['profile', 'change', 'static prefix hash', 'static tokens', 'warm cost / 1k requests, claude-sonnet', 'boundary', 'sections']);
    expect(profiles.children).toHaveLength(2);
    const row = cells(1);
    expect(row.slice(0, 3)).toEqual(['default', 'changed', `⚠ ${short('old', 'default')} → ${short('new', 'default')}`]);
    // Below the 1,024-token minimum nothing is cached: every token at base price, per 1,000 requests.
    const perThousand = (side: 'old' | 'new') => {
      const p = manifests[side].profiles.default!;
      return `${p.sections.reduce((n, s) => n + s.tokens, 0).toFixed(1)}k`; // tokens × 1,000, in thousands
    };
    expect(row[4]).toBe(`${perThousand('old')} → ${perThousand('new')}`);
    expect(row[5]).toBe('2');
  });
});

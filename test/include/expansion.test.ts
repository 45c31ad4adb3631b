/**
 * The expanded-size guard (docs/authoring.md#expanded-size) and the cost of expansion: includes
 * that fan out exponentially are stopped early with one positioned
 * diagnostic, a diamond under the limit still inlines twice, and the work
 * follows the size of the result. No assertion here times anything: the
 * shapes are sized so that the old, exponential or quadratic, ways would not
 * end within the test timeout, while the linear ones take well under a second.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, type Diagnostic } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import type { SourceMap } from '../../compiler/runtime/manifest.js';
import { runCli } from '../helpers/cli.js';
import { readTree, tempDir, writeTree } from '../helpers/tree.js';

const PROFILE = { 'prompts/profiles/p.md': '---\nsections: [s]\n---\n' };

/** `levels` fragments, each including the next `width` times; the section includes the first `width` times. */
function fanOut(levels: number, width: number, leaf = 'leaf text'): Record<string, string> {
  const line = (target: string) => Array.from({ length: width }, () => `@${target}`).join('\n');
  const files: Record<string, string> = { ...PROFILE, 'prompts/sections/s.md': `${line('../fragments/f1.md')}\n` };
  for (let i = 1; i < levels; i++) files[`prompts/fragments/f${i}.md`] = `${line(`./f${i + 1}.md`)}\n`;
  files[`prompts/fragments/f${levels}.md`] = `${leaf}\n`;
  return files;
}

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  await writeTree(root, files);
  return root;
}

function errors(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === 'error');
}

async function staticText(root: string, options = {}): Promise<{ text: string; map: SourceMap }> {
  const result = await buildProject({ root, cacheDir: null, ...options });
  expect(errors(result.diagnostics)).toEqual([]);
  const section = result.manifest!.profiles.p!.sections[0]!;
  if (section.kind !== 'static' || section.map === undefined) throw new Error('expected a static section with a map');
  const dist = path.join(root, 'dist');
  return { text: await fs.readFile(path.join(dist, section.file), 'utf8'), map: JSON.parse(await fs.readFile(path.join(dist, section.map), 'utf8')) };
}

describe('the expanded-size guard', () => {
  it('stops an exponential fan-out early: one diagnostic at the directive, naming the chain; nothing written', async () => {
    // 100^5 copies of the leaf: expanded in full it would never end; stopped at 1 MiB, it is done at once.
    const root = await tree(fanOut(5, 100));
    await writeTree(root, { 'dist/keep.txt': 'sentinel\n' });
    // dist/ holds only the sentinel, so it is no bundle: forced, as the issue-12 rules want.
    const result = await buildProject({ root, cacheDir: null, forceOut: true });
    expect(result.ok).toBe(false);
    expect(result.written).toBeNull();
    expect(errors(result.diagnostics)).toHaveLength(1);
    const [d] = errors(result.diagnostics);
    expect(d).toMatchObject({ rule: 'include/too-large-expanded', file: 'prompts/sections/s.md', line: 1, column: 1, excerpt: '@../fragments/f1.md' });
    expect(d!.message).toContain('1048576-byte limit');
    expect(d!.message).toContain('prompts/sections/s.md → prompts/fragments/f1.md → prompts/fragments/f2.md → prompts/fragments/f3.md');
    expect(d!.note).toContain('--max-expanded-bytes');
    expect([...(await readTree(path.join(root, 'dist'))).keys()]).toEqual(['keep.txt']);
  });

  it('keeps the previous bundle whole when a change makes the text too large', async () => {
    const root = await tree(fanOut(3, 10));
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const before = await readTree(path.join(root, 'dist'));
    await writeTree(root, fanOut(5, 40));
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result.diagnostics).map((d) => d.rule)).toEqual(['include/too-large-expanded']);
    expect(await readTree(path.join(root, 'dist'))).toEqual(before);
    expect((await loadBundle(path.join(root, 'dist'))).manifest.profiles.p).toBeDefined();
  });

  it('a diamond under the limit still inlines twice, each copy in the source map', async () => {
    const root = await tree({
      ...PROFILE,
      'prompts/sections/s.md': 'top\n@../fragments/a.md\n@../fragments/b.md\nend\n',
      'prompts/fragments/a.md': 'a says\n@./d.md\n',
      'prompts/fragments/b.md': 'b says\n@./d.md\n',
      'prompts/fragments/d.md': 'shared\n',
    });
    const { text, map } = await staticText(root);
    expect(text).toBe('top\na says\nshared\nb says\nshared\nend\n');
    const shared = map.segments.filter((s) => s.file === 'prompts/fragments/d.md');
    expect(shared.map((s) => s.chain)).toEqual([
      ['prompts/sections/s.md', 'prompts/fragments/a.md', 'prompts/fragments/d.md'],
      ['prompts/sections/s.md', 'prompts/fragments/b.md', 'prompts/fragments/d.md'],
    ]);
    expect(shared.map((s) => text.slice(s.start, s.end))).toEqual(['shared', 'shared']);
  });

  it('counts UTF-8 bytes of the final text: exactly at the limit builds, one byte over does not', async () => {
    // Each include drops one final newline of 'é\n\n'; the section's own final newline takes the text over.
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': '@../fragments/e.md, @../fragments/e.md, @../fragments/e.md\n', 'prompts/fragments/e.md': 'é\n\n' });
    const expected = 'é\n, é\n, é\n\n';
    const size = Buffer.byteLength(expected);
    expect(size).toBe(expected.length + 3);
    expect((await staticText(root, { maxExpandedBytes: size })).text).toBe(expected);
    const over = await buildProject({ root, cacheDir: null, maxExpandedBytes: size - 1 });
    expect(errors(over.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual(['include/too-large-expanded 1:59']);
    // The final newlines includes drop do not count, even while they are in the text: 'abc\n\n' loses one in t.md, one in s.md.
    const tight = await tree({ ...PROFILE, 'prompts/sections/s.md': '@../fragments/t.md', 'prompts/fragments/t.md': '@./u.md', 'prompts/fragments/u.md': 'abc\n\n' });
    expect((await staticText(tight, { maxExpandedBytes: 3 })).text).toBe('abc');
  });

  it('is configurable, and follows the file size limit unless set apart from it', async () => {
    const root = await tree(fanOut(3, 10)); // 1,000 leaves: 10,000 bytes
    expect((await buildProject({ root, cacheDir: null })).ok).toBe(true);
    const tight = await buildProject({ root, cacheDir: null, maxExpandedBytes: 5000 });
    expect(errors(tight.diagnostics).map((d) => d.rule)).toEqual(['include/too-large-expanded']);
    expect(errors(tight.diagnostics)[0]!.message).toContain('5000-byte limit');
    const small = await buildProject({ root, cacheDir: null, maxBytes: 8192 });
    expect(errors(small.diagnostics).map((d) => d.rule)).toEqual(['include/too-large-expanded']);
    expect((await buildProject({ root, cacheDir: null, maxBytes: 8192, maxExpandedBytes: 10_000 })).ok).toBe(true);
  });

  it('a text over the limit on its own is refused where it crosses it', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `${'x'.repeat(99)}\n${'y'.repeat(99)}\n${'z'.repeat(99)}\n` });
    const result = await buildProject({ root, cacheDir: null, maxExpandedBytes: 150 });
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual(['include/too-large-expanded 2:51']);
  });

  it('bounds the source map too: a deep chain of short pieces repeats its whole chain in each', async () => {
    // 300 levels of 10 bytes: a 3 KB text, but a map of 1.7 MB — over 64 times the 4,000-byte limit, and over 1 MiB.
    const levels = 300;
    const files: Record<string, string> = { ...PROFILE, 'prompts/sections/s.md': 'start\n@../fragments/f0.md\n' };
    for (let i = 0; i < levels; i++) files[`prompts/fragments/f${i}.md`] = i + 1 < levels ? `level ${i}\n@./f${i + 1}.md\n` : `level ${i}\n`;
    const root = await tree(files);
    const result = await buildProject({ root, cacheDir: null, maxDepth: levels + 1, maxExpandedBytes: 4000, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(errors(result.diagnostics)).toHaveLength(1);
    const [d] = errors(result.diagnostics);
    expect(d).toMatchObject({ rule: 'include/too-large-expanded', file: 'prompts/sections/s.md', line: 2, column: 1 });
    expect(d!.message).toContain('source map goes over 1048576 bytes');
    expect(d!.message).toContain('prompts/sections/s.md → prompts/fragments/f0.md → prompts/fragments/f1.md →');
  });

  it('bounds the removed comments’ positions with the map: a comment-only fragment adds no text, but a position each', async () => {
    // 20 includes of 1,000 comments: a 20-byte text, and 20,000 positions (about 2 MB in the manifest) — over the map's 1 MiB floor.
    const files = { ...PROFILE, 'prompts/sections/s.md': `${Array.from({ length: 20 }, () => '@../fragments/notes.md').join(' ')}\n`, 'prompts/fragments/notes.md': '<!-- note -->\n'.repeat(1000) };
    const result = await buildProject({ root: await tree(files), cacheDir: null, maxExpandedBytes: 1000 });
    expect(errors(result.diagnostics).map((d) => d.rule)).toEqual(['include/too-large-expanded']);
    expect(errors(result.diagnostics)[0]!.message).toContain('source map goes over 1048576 bytes');
  });

  it('the CLI takes --max-expanded-bytes', async () => {
    const root = await tree(fanOut(3, 10));
    const run = await runCli(['build', '--root', root, '--no-cache', '--max-expanded-bytes', '5000']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('include/too-large-expanded');
    expect(run.stderr).toContain('5000-byte limit');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
  });
});

describe('the cost of expansion follows the size of the result', () => {
  it('a fan-out just under the limit builds: 100,000 copies, each in the source map', async () => {
    const root = await tree(fanOut(5, 10));
    const { text, map } = await staticText(root);
    expect(Buffer.byteLength(text)).toBe(1_000_000);
    expect(map.segments.filter((s) => s.file === 'prompts/fragments/f5.md')).toHaveLength(100_000);
  });

  it('places 110,000 broken includes on one line, each at its column, by line index rather than counting from the start', async () => {
    // Counting back to the line start for each of them would read 54 billion characters.
    const n = 110_000;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `${'@./no.md '.repeat(n)}\n` });
    const result = await buildProject({ root, cacheDir: null, write: false });
    const missing = errors(result.diagnostics);
    expect(missing).toHaveLength(n);
    expect(missing.every((d) => d.rule === 'include/missing' && d.line === 1)).toBe(true);
    expect(missing.at(-1)!.column).toBe(9 * (n - 1) + 1);
  });

  it('places 300,000 template expressions of a static section on one line, each at its column', async () => {
    const n = 300_000;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `${'{{ '.repeat(n)}\n` });
    const result = await buildProject({ root, cacheDir: null, write: false });
    const hits = errors(result.diagnostics);
    expect(hits).toHaveLength(n);
    expect(hits.every((d) => d.rule === 'section/static-template' && d.line === 1)).toBe(true);
    expect(hits.at(-1)!.column).toBe(3 * (n - 1) + 1);
  });

  it('a 600-level include chain (depth limit raised) expands without recursion, every level in order', async () => {
    const levels = 600;
    const files: Record<string, string> = { ...PROFILE, 'prompts/sections/s.md': 'start\n@../fragments/f0.md\n' };
    for (let i = 0; i < levels; i++) files[`prompts/fragments/f${i}.md`] = i + 1 < levels ? `level ${i}\n@./f${i + 1}.md\n` : `level ${i}\n`;
    const root = await tree(files);
    // In this thread: the parse pool's workers run the built lib/, which vitest does not load.
    const { text, map } = await staticText(root, { maxDepth: levels + 1, parallelThreshold: Number.POSITIVE_INFINITY });
    expect(text).toBe(`start\n${Array.from({ length: levels }, (_, i) => `level ${i}\n`).join('')}`);
    const deepest = map.segments.find((seg) => seg.file === `prompts/fragments/f${levels - 1}.md`)!;
    expect(deepest.chain).toHaveLength(levels + 1);
    expect(deepest.chain.slice(0, 3)).toEqual(['prompts/sections/s.md', 'prompts/fragments/f0.md', 'prompts/fragments/f1.md']);
  });
});

describe('list nesting', () => {
  /** A list `depth` levels deep, an include in its deepest item. */
  const deepList = (depth: number) => `${Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- level ${i + 1}`).join('\n')} @../x.md\n`;

  it('a list nested deeper than 100 levels is a diagnostic where it passes 100, not a tokenizer running for minutes', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': deepList(720), 'prompts/x.md': 'x\n' });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written).toBeNull();
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['source/nesting-too-deep prompts/sections/s.md:101:1']);
    expect(errors(result.diagnostics)[0]!.message).toBe('lists nest deeper than 100 levels here');
  });

  it('a list 100 levels deep builds, its include expanded; an included file nested deeper is reported in that file', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': deepList(100), 'prompts/x.md': 'x\n' });
    const { text } = await staticText(root);
    expect(text.endsWith('- level 100 x\n')).toBe(true);
    await writeTree(root, { 'prompts/sections/s.md': 'See @../deep.md\n', 'prompts/deep.md': deepList(101) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}`)).toEqual(['source/nesting-too-deep prompts/deep.md:101']);
  });
});

describe('lazy continuation lines', () => {
  it('past the work limit they are a diagnostic at the line that crossed it, not a tokenizer running for seconds', async () => {
    // One quoted paragraph continued by 20,000 lines without `>`: micromark re-reads the paragraph for each (7 s unguarded).
    const lazy = `> quote @../x.md\n${'lazy\n'.repeat(20_000)}`;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `Intro.\n\n${lazy}`, 'prompts/x.md': 'x\n' });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written).toBeNull();
    // 1 + 2 + … + n passes 30,000,000 at n = 7,746: the lazy line on line 3 + 7,746 of the file.
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['source/too-many-lazy-lines prompts/sections/s.md:7749:1']);
  });

  it('a paragraph as long within the limit builds, and indented or quoted lines are no lazy work at all', async () => {
    const root = await tree({
      ...PROFILE,
      'prompts/sections/s.md': `> quote @../x.md\n${'lazy\n'.repeat(2_000)}\n- item @../x.md\n${'  indented\n'.repeat(8_000)}\n${'> quoted\n'.repeat(8_000)}`,
      'prompts/x.md': 'x\n',
    });
    const { text } = await staticText(root);
    expect(text.startsWith('> quote x\nlazy\n')).toBe(true);
    expect(text).toContain('- item x\n  indented\n');
  });
});

describe('inline markup', () => {
  it('past the emphasis or bracket limit a paragraph is a diagnostic where it starts, not a tokenizer running for minutes', async () => {
    // 40,000 `*a*` pairs in one paragraph: micromark splices its event list for each (over a minute unguarded).
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `Intro.\n\nSee @../x.md ${'*a* '.repeat(40_000)}\n`, 'prompts/x.md': 'x\n' });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.written).toBeNull();
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['source/too-much-markup prompts/sections/s.md:3:1']);
    // 200,001 `[`: each held by the tokenizer until its paragraph ends (a million: 1.1 GB).
    await writeTree(root, { 'prompts/sections/s.md': `Intro.\n\nSee @../x.md ${'['.repeat(200_001)}\n` });
    const brackets = await buildProject({ root, cacheDir: null });
    expect(errors(brackets.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}`)).toEqual(['source/too-much-markup prompts/sections/s.md:3']);
  });

  it('stars in fenced code, list markers and short paragraphs are no emphasis work: such a file builds', async () => {
    // The mention of an include makes the fence a part the scanner reads (it stays text: it is code).
    const code = `\`\`\`c\n// see @../x.md\n${'int *p = *q;\n'.repeat(20_000)}\`\`\``;
    const list = '* item with *emphasis* @../x.md\n'.repeat(10_000);
    const paragraphs = `${'*a* '.repeat(50)}@../x.md\n\n`.repeat(1_000);
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `${code}\n\n${list}\n${paragraphs}`, 'prompts/x.md': 'x\n' });
    const { text } = await staticText(root);
    expect(text).toContain('* item with *emphasis* x\n');
    expect(text).toContain('// see @../x.md\n');
  });
});

describe('template nesting', () => {
  const dynamic = (body: string) => `---\nkind: dynamic\ninputs: [a]\n---\n${body}`;

  it('blocks nested past 100 (else-if chains count) are a diagnostic at the tag, not a parser recursing until the stack runs out', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': dynamic(`${'{{#if a}}'.repeat(5_000)}x${'{{/if}}'.repeat(5_000)}`) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)).toEqual(['template/syntax 5:901 blocks nested more than 100 deep (else-if chains count)']);
    await writeTree(root, { 'prompts/sections/s.md': dynamic(`{{!-- {{#if a}} --}}{{#if a}}x${'{{else if a}}y'.repeat(5_000)}{{/if}}`) });
    const chain = await buildProject({ root, cacheDir: null });
    expect(errors(chain.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column}`)).toEqual(['template/syntax 5:1417']);
  });

  it('more than 20,000 tags are a diagnostic at the first one too many, not a module of tens of megabytes', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': dynamic(`${'{{a}} '.repeat(20_000)}\n{{a}} {{a}}\n`) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)).toEqual(['template/syntax 6:1 more than 20,000 tags in one template']);
  });

  it('more than 40,000 path segments are a diagnostic at the path that passes them, not 140 MB of modules', async () => {
    const print = `{{${'abcdefghijklmnopqrstuvwxyz'.split('').join('.')}}}`; // 26 segments, 55 characters
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': dynamic(print.repeat(2_000)) });
    const result = await buildProject({ root, cacheDir: null });
    // 1,538 prints hold 39,988 segments: the 1,539th passes the limit, at its path (after its `{{`).
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)).toEqual([`template/syntax 5:${1538 * 55 + 3} more than 40,000 path segments in one template`]);
  });

  it('100 levels build (for both targets: Python past 80 gets the Handlebars-shaped module), and closed blocks do not add up', async () => {
    const nested = `${'{{#if a}}'.repeat(100)}x${'{{/if}}'.repeat(100)}`;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': dynamic(`${nested}\n${'{{#if a}}y{{else}}z{{/if}}'.repeat(1_000)}\n`) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result.diagnostics)).toEqual([]);
  });
});

describe('frontmatter read leniently', () => {
  it('is quoted and parsed again only while the reparsing stays within a megabyte: a huge frontmatter gets the strict error', async () => {
    // Two values to quote, after `filler` lines strict YAML reads.
    const agent = (filler: number) =>
      `---\nname: a\n${Array.from({ length: filler }, (_, i) => `k${i}: v`).join('\n')}\ndescription: Triggers on: x\nhint: Use: y\n---\nBody\n`;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': 'Hi.\n', 'agents/a.md': agent(3) });
    const small = await buildProject({ root, cacheDir: null, write: false });
    expect(small.diagnostics.map((d) => d.rule).filter((r) => r.startsWith('frontmatter/'))).toEqual(Array(2).fill('frontmatter/lenient-yaml'));
    // 600 KB: one try more is all the budget allows (sixteen of 700 KB took 9 s), so the file stays the error strict YAML found
    // (for an agent, a warning that skips it, as Claude Code would skip a file it cannot read).
    await writeTree(root, { 'agents/a.md': agent(60_000) });
    const huge = await buildProject({ root, cacheDir: null, write: false });
    const frontmatter = huge.diagnostics.filter((d) => d.rule.startsWith('frontmatter/'));
    expect(frontmatter.map((d) => `${d.rule} ${d.severity} ${d.line}`)).toEqual(['frontmatter/invalid-yaml warning 60003']);
    expect(huge.bundle?.manifest.skippedAgents).toEqual({ 'agents/a.md': { rule: 'frontmatter/invalid-yaml', reason: frontmatter[0]!.message } });
  });

  it('a repeated key is still an error at the repeat, found in one pass over 20,000 keys (the YAML library’s own check compares each with all before it: 60,000 took 90 s)', async () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: v`).join('\n');
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `---\nanchor: &a x\nalias: *a\n${keys}\nk5: again\n---\nHi.\n` });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)).toEqual(['frontmatter/invalid-yaml 20004:1 Map keys must be unique']);
  });
});

describe('long blocks', () => {
  it('a block of more than 100,000 lines (a `>` counting a line twice) is a diagnostic where it passes them; one of 51,000 plain lines builds', async () => {
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': `Intro.\n\n> @../x.md\n${'> quoted\n'.repeat(51_000)}`, 'prompts/x.md': 'x\n' });
    const result = await buildProject({ root, cacheDir: null });
    // 50,000 lines weigh 100,000: the next one, on line 3 + 50,000, passes the limit.
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['source/block-too-long prompts/sections/s.md:50003:1']);
    await writeTree(root, { 'prompts/sections/s.md': `Intro.\n\n@../x.md\n${'plain\n'.repeat(51_000)}` });
    const { text } = await staticText(root);
    expect(text.startsWith('Intro.\n\nx\nplain\n')).toBe(true);
  });

  it('the long blocks of a file together may hold as many lines as one: the block that passes them is the diagnostic, and is not tokenized', async () => {
    const paragraph = `@../x.md\n${'plain\n'.repeat(50_000)}\n`;
    const root = await tree({ ...PROFILE, 'prompts/sections/s.md': paragraph.repeat(3), 'prompts/x.md': 'x\n' });
    const result = await buildProject({ root, cacheDir: null, write: false });
    // The second paragraph, from line 50,003, brings the lines to 100,002.
    expect(errors(result.diagnostics).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`)).toEqual(['source/block-too-long prompts/sections/s.md:50003:1']);
  });
});

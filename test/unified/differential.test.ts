/**
 * The tree and the build read a source the same way: the `include` nodes of
 * `remarkPromptBuild`'s tree sit exactly where the build's scan finds the
 * directives it expands (compiler/markdown/scan.ts), file for file — on the
 * third-party corpus, on this repository's prompts, agents and fixtures, and
 * on generated documents, static and dynamic, that pile Markdown's
 * constructs, templates and include-like words against one another
 * (`PROMPT_BUILD_LONG=1` runs ten times as many, and every corpus file).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Nodes, Root } from 'mdast';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../compiler/core/options.js';
import { normaliseText, parseSource } from '../../compiler/markdown/source.js';
import { remarkPromptBuild } from '../../compiler/unified/index.js';
import { mulberry32 } from '../helpers/generate-tree.mjs';
import { markdownUnder, REPO } from '../helpers/tree.js';

const CORPUS = path.resolve(REPO, '../shared/corpus');
const LONG = process.env.PROMPT_BUILD_LONG === '1';
const corpus = await markdownUnder(CORPUS);
const GENERATED = LONG ? 4000 : 400;

const processor = unified().use(remarkPromptBuild).freeze();

type Found = { start: number; end: number; path: string };

/** The directives the build expands, at file offsets; null when the build leaves a part unread (a scan limit: its own diagnostic). */
function buildReading(text: string): Found[] | null {
  const parsed = parseSource(text, DEFAULT_LIMITS.extensions);
  if (parsed.scan.limit) return null;
  return parsed.scan.directives.map((d) => ({ start: parsed.bodyOffset + d.start, end: parsed.bodyOffset + d.end, path: d.path }));
}

function treeReading(text: string): Found[] {
  const found: Found[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'include') found.push({ start: node.position!.start.offset!, end: node.position!.end.offset!, path: node.path });
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(processor.parse(text) as Root);
  return found;
}

function expectSameReading(text: string, label: string): void {
  const build = buildReading(text);
  if (build !== null) expect(treeReading(text), label).toEqual(build);
}

describe('include nodes against the build', () => {
  // The corpus lives beside the checkout, not in it: a checkout without it has only the other cases.
  // Only a text with an `@` can hold an include, in either reading (`directivesIn` reads nothing else): the files without
  // one (six in seven, and most of the bytes) are left to the long run, where they show the tree parses every file.
  it.runIf(corpus.length > 0)('are where the build finds includes, on every file of the third-party corpus that holds an @', async () => {
    let read = 0;
    for (const file of corpus) {
      const text = normaliseText(await fs.readFile(file));
      if (!LONG && !text.includes('@')) continue;
      expectSameReading(text, path.relative(CORPUS, file));
      read++;
    }
    expect(read).toBeGreaterThan(40);
  });

  it("are where the build finds includes, on this repository's prompts, agents and fixtures", async () => {
    const files = [...(await markdownUnder(path.join(REPO, 'prompts'))), ...(await markdownUnder(path.join(REPO, 'agents'))), ...(await markdownUnder(path.join(REPO, 'test/fixtures')))];
    expect(files.length).toBeGreaterThan(50);
    let includes = 0;
    for (const file of files) {
      const text = normaliseText(await fs.readFile(file));
      expectSameReading(text, path.relative(REPO, file));
      includes += treeReading(text).length;
    }
    expect(includes).toBeGreaterThan(20);
  });

  it(`are where the build finds includes, on ${GENERATED} generated documents`, () => {
    const random = mulberry32(30);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    for (let i = 0; i < GENERATED; i++) {
      const head = pick(HEADS);
      const body = Array.from({ length: 1 + Math.floor(random() * 16) }, () => pick(PIECES)).join('');
      expectSameReading(head + body, JSON.stringify(head + body));
    }
  });
});

/** Frontmatter: none, a static section's, a dynamic section's (templates in the tree), an agent's, one never closed. */
const HEADS = ['', '', '---\ndescription: s\n---\n', '---\nkind: dynamic\ninputs: [x]\n---\n', '---\nkind: dynamic\n---\n\n', '---\nname: a\ndescription: d\n---\n', '---\nnever closed\n'];

/** Constructs, templates and include-like words, and the characters that start or end them, to be joined at random. */
const PIECES = [
  'word ', 'more words', '@./a.md ', '@b.md', '@./c.md.', '@../d.md,', '@~/e.md', '@/abs.md', '@types/node ', '@user ', 'me@x.md ', '(@./p.md)', '@./q.md\'s',
  '{{x}}', '{{y}} ', '{{#if x}}', '{{/if}}', '{{{raw}}}', '{{!-- c }} --}}', '{{a_b}} ', '{{[k]}}', '{{', '}}', '@./t{{x}}.md ', '{{x}}@./u.md ', '\\{{x}}',
  '{{x *y}}', '{{#if _p}}', '{{a <b> c}}', '{{[l](u)}}',
  ' ', '\n', '\n\n', '  \n', '\\\n', '\t', '*', '**', '_', '*em @./f.md*', '**strong**', '`', '`code @./g.md`', '\\@./h.md', '\\*', '&amp;', '&#64;./i.md', '&copy;@./j.md',
  '[', ']', '(', ')', '[link @./k.md](url)', '[two\nlines @./l.md](url)', '[a](@./m.md)', '[ref]', '[ref]: /dest "title"\n', '[x][ref]', '![img @./n.md](src)',
  '<', '>', '<https://example.com/@./o.md>', '<me@example.com>', '<span>', '</span>', '<!-- c @./r.md -->', '<div>\n@./s.md\n</div>\n',
  '# ', '## heading @./v.md\n', '===\n', '---\n', '> ', '> quote @./w.md\n', '- ', '1. ', '- item @./y.md\n  more\n', '    indented @./z.md\n', '```\n@./k.md\n```\n', '~~~\n{{x}}\n~~~\n',
];

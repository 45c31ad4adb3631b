/**
 * compiler/markdown/prose.ts reads text nodes and block HTML off micromark's events
 * instead of remark-parse's tree: it must give exactly the tree's answer
 * (test/helpers/mdast-prose.ts) — on the third-party corpus, on this
 * repository's own prompts and fixtures, and on generated documents that
 * pile Markdown's constructs against one another.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { generatedCases } from '../helpers/scale.js';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/generate-tree.mjs';
import { proseOf } from '../../compiler/markdown/prose.js';
import { proseFromTree } from '../helpers/mdast-prose.js';
import { markdownUnder, REPO } from '../helpers/tree.js';

const CORPUS = path.resolve(REPO, '../shared/corpus');
const corpus = await markdownUnder(CORPUS);

describe('prose from micromark events', () => {
  // The corpus lives beside the checkout (corpus.test.ts says so when it is absent); without it, this one case has nothing to read.
  it.runIf(corpus.length > 0)('equals the mdast tree on every file of the third-party corpus', async () => {
    for (const file of corpus) {
      const text = (await fs.readFile(file, 'utf8')).replace(/\r\n?/g, '\n');
      expect(proseOf(text), path.relative(CORPUS, file)).toEqual(proseFromTree(text));
    }
  });

  it("equals the mdast tree on this repository's prompts, agents and fixtures", async () => {
    const files = [...(await markdownUnder(path.join(REPO, 'prompts'))), ...(await markdownUnder(path.join(REPO, 'agents'))), ...(await markdownUnder(path.join(REPO, 'test/fixtures')))];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = await fs.readFile(file, 'utf8');
      expect(proseOf(text), path.relative(REPO, file)).toEqual(proseFromTree(text));
    }
  });

  it(`equals the mdast tree on ${generatedCases(1200)} generated documents`, () => {
    const random = mulberry32(7);
    for (let i = 0; i < generatedCases(1200); i++) {
      const doc = Array.from({ length: 1 + Math.floor(random() * 14) }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      expect(proseOf(doc), JSON.stringify(doc)).toEqual(proseFromTree(doc));
    }
  });

  it('finds text inside links and emphasis, and none inside code, HTML, autolinks or images', () => {
    const doc = 'a *b* [c](d) `e` <f> <https://g> ![h](i)\n\n<!-- j -->\n';
    const prose = proseOf(doc);
    // Between the constructs: the spaces, each a text node of its own.
    expect(prose.texts.map((r) => doc.slice(r.start, r.end))).toEqual(['a ', 'b', ' ', 'c', ' ', ' ', ' ', ' ']);
    expect(prose.blockHtml).toEqual([{ start: 42, end: 52, value: '<!-- j -->' }]);
  });
});

/** Constructs, and the characters that start or end them, to be joined at random. */
const PIECES = [
  'word ', 'more words', '@./a.md ', '@b.md', '@./c.md.', '{{x}}', ' ', '\n', '\n\n', '  \n', '\\\n', '\t',
  '*', '**', '_', '__', '*em*', '**strong**', '_u_', '`', '``', '`code @./d.md`', '\\@', '\\*', '&amp;', '&#64;', '&copy;',
  '[', ']', '(', ')', '[link @./e.md](url)', '[two\nlines @./m.md](url)', '*two\nlines*', '[a `b`\n<i>c</i>](d)', '[ref]', '[ref]: /dest "title"\n', '[x][ref]', '[y][]', '![img @./f.md](src)', '![alt][ref]',
  '<', '>', '<https://example.com>', '<me@example.com>', '<span>', '</span>', '<!-- comment -->', '<!--\nmulti\n-->', '<!--\n\nblank inside\n-->\n', '<pre>\n\n@./n.md\n</pre>\n', '<div>\n@./g.md\n</div>\n',
  '# ', '## heading @./h.md\n', '===\n', '---\n', 'Title\n===\n', '> ', '> quote @./i.md\n', '- ', '1. ', '- item\n  more\n', '    indented @./j.md\n',
  '```\n@./k.md\n```\n', '~~~js\ncode\n~~~\n', '```', '***\n', '"', "'", '.', ',', '|', 'a|b\n', '<!-- a -->\n\n', '\n> <!-- q -->\n', '- <!-- l -->\n',
];

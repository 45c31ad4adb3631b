/**
 * The scanner tokenizes only the blocks of a body that may hold something
 * (compiler/markdown/block-cuts.ts, compiler/markdown/scan.ts). Both shortcuts must be
 * invisible: the parts, tokenized alone, must hold exactly the whole
 * document's prose, and the scan must equal the scan of the whole body
 * tokenized at once — on the corpus, on this repository's files, and on
 * generated documents built to put blocks that run across blank lines
 * against the cuts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { generatedCases } from '../helpers/scale.js';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../helpers/generate-tree.mjs';
import { blockCuts } from '../../compiler/markdown/block-cuts.js';
import { proseOf, type Prose } from '../../compiler/markdown/prose.js';
import { scanBody } from '../../compiler/markdown/scan.js';
import { markdownUnder, REPO } from '../helpers/tree.js';

const EXTENSIONS = ['.md', '.txt'];

async function readAll(files: string[]): Promise<string[]> {
  return Promise.all(files.map(async (f) => (await fs.readFile(f, 'utf8')).replace(/\r\n?/g, '\n')));
}

const CORPUS = path.resolve(REPO, '../shared/corpus');
const corpus = await readAll(await markdownUnder(CORPUS));
const own = await readAll([
  ...(await markdownUnder(path.join(REPO, 'prompts'))),
  ...(await markdownUnder(path.join(REPO, 'agents'))),
  ...(await markdownUnder(path.join(REPO, 'test/fixtures'))),
]);

/** The prose of each part, tokenized alone, at document offsets. */
function proseOfParts(doc: string, cuts: number[]): Prose {
  const whole: Prose = { texts: [], blockHtml: [] };
  let from = 0;
  for (const to of [...cuts, doc.length]) {
    const part = proseOf(doc.slice(from, to));
    whole.texts.push(...part.texts.map((r) => ({ start: r.start + from, end: r.end + from })));
    whole.blockHtml.push(...part.blockHtml.map((h) => ({ ...h, start: h.start + from, end: h.end + from })));
    from = to;
  }
  return whole;
}

/** Holds one document to both properties; says whether it was cut at all. */
function check(doc: string, label: () => string): boolean {
  const cuts = blockCuts(doc);
  same(proseOfParts(doc, cuts), proseOf(doc), label);
  for (const proseTemplates of [true, false]) {
    same(scanBody(doc, EXTENSIONS, { proseTemplates }), scanBody(doc, EXTENSIONS, { proseTemplates, everywhere: true }), label);
  }
  return cuts.length > 0;
}

/** `toEqual`, which costs more than the parsing, only to explain a difference. */
function same(actual: object, expected: object, label: () => string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual, label()).toEqual(expected);
}

describe('scanning only the blocks that may hold something', () => {
  // The corpus lives beside the checkout (corpus.test.ts says so when it is absent); without it, this one case has nothing to read.
  it.runIf(corpus.length > 0)('changes nothing on the third-party corpus', () => {
    const cut = corpus.filter((doc, i) => check(doc, () => `corpus file ${i}`));
    expect(cut.length).toBeGreaterThan(corpus.length / 4);
  });

  it("changes nothing on this repository's prompts, agents and fixtures", () => {
    expect(own.length).toBeGreaterThan(50);
    own.forEach((doc, i) => check(doc, () => `own file ${i}`));
  });

  it(`changes nothing on ${generatedCases(1200)} generated documents`, () => {
    const random = mulberry32(11);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let cut = 0;
    for (let i = 0; i < generatedCases(1200); i++) {
      const lines = Array.from({ length: 2 + Math.floor(random() * 16) }, () => (random() < 0.04 ? pick(RARE_LINES) : pick(LINES)));
      const doc = lines.map((line) => line + pick(SEPARATORS)).join('');
      if (check(doc, () => JSON.stringify(doc))) cut++;
    }
    // Most generated documents must be cut somewhere, or the property says little.
    expect(cut).toBeGreaterThan(generatedCases(1200) / 2);
  });

  it(`changes nothing on ${generatedCases(800)} generated lists, cut between their items`, () => {
    const random = mulberry32(23);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let cutBetweenItems = 0;
    for (let i = 0; i < generatedCases(800); i++) {
      const lines = Array.from({ length: 2 + Math.floor(random() * 14) }, () => pick(LIST_LINES));
      const doc = lines.map((line) => line + (random() < 0.85 ? '\n' : pick(SEPARATORS))).join('');
      check(doc, () => JSON.stringify(doc));
      if (blockCuts(doc).some((at) => doc[at - 2] !== '\n' && /^[-*+][ \t]/.test(doc.slice(at)))) cutBetweenItems++;
    }
    expect(cutBetweenItems).toBeGreaterThan(generatedCases(800) / 4);
  });

  it('cuts a list between its column-0 items, even without blank lines, but not inside a block quote or an HTML block', () => {
    const doc = '- a @./x.md\n  - b\n- c\ntext\n* d\n> q\n> - e\n<div>\n- f\n';
    expect(blockCuts(doc).map((at) => doc.slice(at, doc.indexOf('\n', at)))).toEqual(['- c', '* d']);
  });

  it('cuts before a column-0 line after a blank line, never inside a fence or a comment', () => {
    const doc = 'a\n\nb @./x.md\n\n```\n\ncode\n```\n\n<!--\n\nnote\n-->\n\nc\n';
    expect(blockCuts(doc).map((at) => doc.slice(at, doc.indexOf('\n', at)))).toEqual(['b @./x.md', '```', '<!--', 'c']);
  });

  it('finds a directive that starts a text node right after inline code, as when the whole body is tokenized', () => {
    const scan = scanBody('Run `make`@./make.md\n', EXTENSIONS);
    expect(scan.directives).toEqual([{ start: 10, end: 20, path: './make.md' }]);
  });
});

/** Lines that keep a document cuttable (when they start in column 0). */
const LINES = [
  'plain words', 'words @./a.md here', 'see @b.md.', '`x`@./c.md', '@d.md*em*', '[x](y)@./e.md', 'a {{x}} b', '{{#if y}}', '\\@./f.md',
  '<!-- note -->', '<!-- note', '-->', 'end -->', '<!-- a --> tail @./g.md', '<!--\t-->',
  '```', '```js', '````', '~~~', '~~~ ``` info', '``', '```x```',
  '<div>', '</div>', '<span>', '<example>', '</example>', '<https://example.com>', '<me@example.com> @./h.md', '<a href="x">', '<custom-tag x="1">',
  '- item @./i.md', '- item', '* star', '+ plus', '1. one @./j.md', '2) two', '10. ten', '> quote @./k.md', '>', '> more',
  '# heading @./l.md', '## h', '===', '---', '***', '* * *', '___', 'Title', 'x  ', 'x\\',
  '    indented @./m.md', '  two spaces @./n.md', '\ttab @./o.md', '   three', '      six',
  '[ref]', '[x][ref]', '![img](src) @./p.md', '*em\u00a0', '**strong', '_u_', '&amp; @./q.md',
  // Markup in the middle of a line, or right before an `@`, where a text node may start.
  '>@./r.md', 'x `y`@./s.md', 'x <b>@./t.md', 'x *e*@./u.md', 'x [l](u)@./v.md', '#@./w.md', 'x &amp;@./y.md', 'x\\@./z.md',
];
/** Lines of lists and what may stand next to their items. */
const LIST_LINES = [
  '- item @./a.md', '* star @b.md', '+ plus', '-\ttab @./c.md', '-  two spaces', '- - -', '* * *', '- -', '- *em', '*em* @./d.md', '* b*', '**x**',
  '- [link @./e.md](u)', '- `code`@./f.md', '- {{x}}', '- <!-- c --> @./g.md', '  - nested @./h.md', '    - deeper', '   - three', '  continued @./i.md',
  'lazy line @./j.md', '1. one', '2. two @./k.md', '1) paren', '> quote @./l.md', '> - quoted item', '>', 'Title', '===', '---', '- ', '-', '*', '+',
  '    code @./m.md', '\tcode', '<div>', '</div>', '<span>x</span> @./n.md', '<!-- c -->', '<!-- open', '-->', '```', '~~~', '# heading', 'x\\', 'x  ',
  '->@./o.md', '- x `y`@./p.md', '- x <b>@./q.md', '- *e*@./r.md', '1.@./s.md', '- >@./t.md',
];
/** Lines on which this reader gives up, so that they are tried too. */
const RARE_LINES = [
  '[ref]: /dest', '  ```', ' ~~~', '\t```', '- ```', '> ```', '1. ~~~', '- <div>', '> <!-- q -->', '  <div>', '<!-->', '<!--->',
  '<pre>', '</pre>', '<script>', '<?php', '?>', '<!DOCTYPE html>', '<![CDATA[', ']]>', '``` `x`', '<style x>', '<textarea>',
];
const SEPARATORS = ['\n', '\n', '\n', '\n\n', '\n\n', '\n\n\n', '\n \n', '\n\t\n'];

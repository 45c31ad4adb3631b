/**
 * What `remarkPromptBuild` makes of a prompt source: frontmatter as `yaml`,
 * includes and (in a dynamic section) templates as nodes of their own, with
 * positions, and text around them with its value as mdast gives it.
 */
import type { Nodes, Root } from 'mdast';
import remarkGfm from 'remark-gfm';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { remarkPromptBuild } from '../../compiler/unified/index.js';

const parse = (doc: string, options?: Parameters<typeof remarkPromptBuild>[0]) => unified().use(remarkPromptBuild, options).parse(doc) as Root;

/** Every node of a type, in document order. */
function all(tree: Nodes, type: string): Nodes[] {
  const out: Nodes[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === type) out.push(node);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return out;
}

const offsets = (node: Nodes) => [node.position!.start.offset, node.position!.end.offset];

describe('remarkPromptBuild', () => {
  it('gives frontmatter as a yaml node and each include as an include node at its place', () => {
    const doc = '---\ndescription: d\n---\nRead @./a.md first.\n\n> then\n> @../b.md\n';
    const tree = parse(doc);
    expect(tree.children[0]).toMatchObject({ type: 'yaml', value: 'description: d' });
    const includes = all(tree, 'include');
    expect(includes.map((n) => [(n as { path: string }).path, doc.slice(...(offsets(n) as [number, number]))])).toEqual([
      ['./a.md', '@./a.md'],
      ['../b.md', '@../b.md'],
    ]);
    expect(includes[1]!.position!.start).toEqual({ line: 7, column: 3, offset: doc.indexOf('@../b.md') });
  });

  it('keeps the text around an include as mdast decodes it: escapes, references, a quote’s line prefix', () => {
    const paragraph = parse('a \\* &amp; @./x.md, b\n> c\n> @./y.md d\n');
    const texts = all(paragraph, 'text').map((n) => (n as { value: string }).value);
    expect(texts).toEqual(['a * & ', ', b', 'c\n', ' d']);
  });

  it('finds no include where the build expands none', () => {
    const doc = [
      '`@./code.md` and\n\n```\n@./fence.md\n```\n',
      '<div>\n@./html.md\n</div>\n',
      '[x](@./dest.md) <https://h/@./auto.md> <me@x.md> \\@./escaped.md me@mail.md @username @types/node',
      '![alt @./img.md](src)',
    ].join('\n');
    expect(all(parse(doc), 'include')).toEqual([]);
    // A `---` never closed is no frontmatter, to the build or the tree: the quote's indented code stays code.
    expect(all(parse('---\nnever closed\n>     indented @./z.md\n'), 'include')).toEqual([]);
  });

  it('makes each {{…}} of a dynamic section one template node, whose Markdown stays the template’s', () => {
    const tree = parse('---\nkind: dynamic\ninputs: [a_b, c_d]\n---\n{{a_b}} and {{c_d}} {{#if x}}{{{raw}}}{{/if}} {{!-- a }} b --}} `{{code}}`\n');
    expect(all(tree, 'template').map((n) => (n as { value: string }).value)).toEqual(['{{a_b}}', '{{c_d}}', '{{#if x}}', '{{{raw}}}', '{{/if}}', '{{!-- a }} b --}}']);
    expect(all(tree, 'emphasis')).toEqual([]);
    expect(tree.data?.promptBuild).toEqual({ kind: 'dynamic' });
  });

  it('leaves a static section’s braces, an unclosed or escaped one, and one across lines as text', () => {
    expect(all(parse('Hello {{name}}\n'), 'template')).toEqual([]);
    expect(all(parse('{{a\nb}} \\{{c}} {{d', { kind: 'dynamic' }), 'template')).toEqual([]);
    // Nor one that would swallow what the build reads as Markdown: a tag, an autolink, a code span, a link, emphasis (the inner `{{x}}` is one).
    const swallowing = '{{a <b> c}} {{d `e` f}} {{[l](u)}} {{g *h}}* {{#if _p}}_ {{i <https://h> {{x}}';
    expect(all(parse(swallowing, { kind: 'dynamic' }), 'template').map((n) => (n as { value: string }).value)).toEqual(['{{x}}']);
    expect(all(parse('Hello {{name}}\n', { kind: 'dynamic' }), 'template')).toHaveLength(1);
    expect(all(parse('---\nkind: dynamic\n---\nx {{y}}\n', { kind: 'static' }), 'template')).toEqual([]);
  });

  it('reads the extensions it is given as the build does', () => {
    expect(all(parse('see @notes.txt and @spec.rst'), 'include').map((n) => (n as { path: string }).path)).toEqual(['notes.txt']);
    expect(all(parse('see @notes.txt and @spec.rst', { extensions: ['.rst'] }), 'include').map((n) => (n as { path: string }).path)).toEqual(['spec.rst']);
  });

  it("leaves a plugin's positionless text nodes alone (remark-gfm's autolink literals) and still finds the includes around them", () => {
    // An escaped dot hides the literal from micromark; gfm's later pass finds it and splits the text into nodes without positions.
    const doc = 'See www\\.example.com and @./a.md now.\n\nThen @./b.md.\n';
    const tree = unified().use(remarkPromptBuild).use(remarkGfm).parse(doc) as Root;
    expect(all(tree, 'link').map((n) => (n as { url: string }).url)).toEqual(['http://www.example.com']);
    expect(all(tree, 'text').filter((n) => !n.position).map((n) => (n as { value: string }).value)).toEqual(['See ', 'www.example.com', ' and @./a.md now.']);
    expect(all(tree, 'include').map((n) => (n as { path: string }).path)).toEqual(['./b.md']);
  });
});

/**
 * The mdast nodes a command's Markdown output is built from (`diff --format
 * markdown`, `usage --format markdown`), serialised by remark-stringify with
 * GFM tables. Every value is data from a bundle or a log — anyone's — so it
 * first becomes one visible line (`inline`); the tree then escapes it for its
 * context (text, code span, table cell), and only the caller decides the
 * output's structure.
 */
import type { PhrasingContent, Root, RootContent, Table, TableCell, TableRow } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { terminalSafe } from '../diagnostics/terminal-safe.js';

export function markdownOf(root: Root): string {
  return unified().use(remarkGfm, { tablePipeAlign: false }).use(remarkStringify, { bullet: '-', fence: '`' }).stringify(root);
}

export function table(head: string[], align: Table['align'], rows: PhrasingContent[][][]): Table {
  const row = (cells: PhrasingContent[][]): TableRow => ({ type: 'tableRow', children: cells.map((children): TableCell => ({ type: 'tableCell', children })) });
  return { type: 'table', align, children: [row(head.map((h) => [t(h)])), ...rows.map(row)] };
}

export function heading(depth: 2 | 3 | 4, children: PhrasingContent[]): RootContent {
  return { type: 'heading', depth, children };
}

export function paragraph(children: PhrasingContent[]): RootContent {
  return { type: 'paragraph', children };
}

/** A value as one visible line: line breaks, controls, invisible and bidi characters shown as escapes (`\\n`, `\\e`, `\\u{202e}`). */
export function inline(value: unknown): string {
  return terminalSafe(String(value));
}

export function t(value: string): PhrasingContent {
  return { type: 'text', value: inline(value) };
}

export function code(value: string): PhrasingContent {
  return { type: 'inlineCode', value: inline(value) };
}

export function strong(value: string): PhrasingContent {
  return { type: 'strong', children: [t(value)] };
}

export function list(items: PhrasingContent[]): PhrasingContent[] {
  return items.flatMap((item, i) => (i === 0 ? [item] : [t(', '), item]));
}

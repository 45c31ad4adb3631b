/**
 * `include` nodes where the build finds include directives. The build reads
 * a text node's source with `directivesIn` (markdown/scan.ts); the tree is
 * read with the same function over the same source, so the two cannot
 * differ on what is an include: only on what is a text node, and the tests
 * hold that (test/unified/differential.test.ts).
 *
 * A `template` node is text to the build (it reads a dynamic section's
 * Markdown without knowing Handlebars), so a run of text and template
 * siblings is read as the one text node the build sees.
 */
import type { Parents, Root, RootContent, Text } from 'mdast';
import { directivesIn, type Directive } from '../markdown/scan.js';
import { LineIndex } from '../core/line-index.js';
import type { Include, Template } from './nodes.js';
import { valueIndex, type Pieces } from './text-pieces.js';

type RunNode = Text | Template;
/** A child in a tree this module has worked on: mdast's own nodes and the two it adds (not registered as root content: nodes.ts). */
type Child = RootContent | Include | Template;
type Point = { line: number; column: number; offset: number };
type Position = { start: Point; end: Point };

/** Replaces, in place, the words of text nodes the build would expand by `include` nodes. */
export function addIncludeNodes(tree: Root, doc: string, pieces: Pieces, extensions: readonly string[]): void {
  let lines: LineIndex | null = null;
  const point = (offset: number): Point => {
    const at = (lines ??= new LineIndex(doc)).positionAt(offset);
    return { line: at.line, column: at.column, offset };
  };
  visit(tree, { doc, pieces, extensions, point });
}

interface Reading {
  doc: string;
  pieces: Pieces;
  extensions: readonly string[];
  point: (offset: number) => Point;
}

function visit(parent: Parents, reading: Reading): void {
  // An autolink's text is its URL: the build reads none of it.
  if (parent.type === 'link' && reading.doc[parent.position?.start.offset ?? -1] === '<') return;
  const children = parent.children as Child[];
  let out: Child[] | null = null;
  for (let i = 0; i < children.length; ) {
    const child = children[i]!;
    if (!isRunNode(child)) {
      if ('children' in child) visit(child as Parents, reading);
      out?.push(child);
      i++;
      continue;
    }
    let j = i + 1;
    while (j < children.length && isRunNode(children[j]!)) j++;
    const run = children.slice(i, j) as RunNode[];
    const from = run[0]!.position!.start.offset!;
    const to = run[run.length - 1]!.position!.end.offset!;
    const directives = directivesIn(reading.doc.slice(from, to), from, reading.extensions);
    if (directives.length > 0) {
      out ??= children.slice(0, i);
      for (const node of splitRun(run, directives, reading)) out.push(node);
    } else if (out) {
      for (const node of run) out.push(node);
    }
    i = j;
  }
  if (out) (parent as { children: Child[] }).children = out;
}

/**
 * A text or template node with its place in the source. A plugin's node has
 * none (remark-gfm's autolink literal splits text into positionless nodes):
 * it is not the source the build reads, so it is left as it is.
 */
function isRunNode(node: Child): node is RunNode {
  return (node.type === 'text' || node.type === 'template') && typeof node.position?.start.offset === 'number' && typeof node.position.end.offset === 'number';
}

function splitRun(run: readonly RunNode[], directives: readonly Directive[], reading: Reading): Child[] {
  const out: Child[] = [];
  let cursor = run[0]!.position!.start.offset!;
  for (const d of directives) {
    clip(run, cursor, d.start, reading, out);
    const include: Include = { type: 'include', path: d.path, value: reading.doc.slice(d.start, d.end), position: span(d.start, d.end, reading) };
    out.push(include);
    cursor = d.end;
  }
  clip(run, cursor, run[run.length - 1]!.position!.end.offset!, reading, out);
  return mergeTexts(out);
}

/** Neighbouring text nodes as one, as mdast has them (a template cut by a directive leaves its rest as text). */
function mergeTexts(nodes: Child[]): Child[] {
  const out: Child[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', value: last.value + node.value, position: { start: last.position!.start, end: node.position!.end } };
    else out.push(node);
  }
  return out;
}

/** What of the run's nodes lies in `[from, to)`: text cut to it, a template whole — or, cut by a directive, as text. */
function clip(run: readonly RunNode[], from: number, to: number, reading: Reading, out: Child[]): void {
  for (const node of run) {
    const start = Math.max(from, node.position!.start.offset!);
    const end = Math.min(to, node.position!.end.offset!);
    if (start >= end) continue;
    if (start === node.position!.start.offset && end === node.position!.end.offset) {
      out.push(node);
      continue;
    }
    if (node.type === 'template') {
      out.push({ type: 'text', value: reading.doc.slice(start, end), position: span(start, end, reading) });
      continue;
    }
    const pieces = reading.pieces.get(node);
    const value = node.value.slice(valueIndex(node, pieces, start), valueIndex(node, pieces, end));
    if (value !== '') out.push({ type: 'text', value, position: span(start, end, reading) });
  }
}

function span(start: number, end: number, reading: Reading): Position {
  return { start: reading.point(start), end: reading.point(end) };
}

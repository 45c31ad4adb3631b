/**
 * The oracle for compiler/markdown/prose.ts: the same answer read off remark-parse's
 * mdast tree, as the scanner read it before it stopped building the tree —
 * text nodes outside code, HTML and autolinks, and HTML nodes whose parent is
 * the root, a block quote, a list or a list item.
 */
import type { Nodes, Parents } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import type { Prose } from '../../compiler/markdown/prose.js';

const processor = unified().use(remarkParse).freeze();

export function proseFromTree(body: string): Prose {
  const prose: Prose = { texts: [], blockHtml: [] };
  walk(processor.parse(body), body, prose, true);
  return prose;
}

function walk(node: Parents, body: string, prose: Prose, blockLevel: boolean): void {
  for (const child of node.children as Nodes[]) {
    const start = child.position!.start.offset!;
    const end = child.position!.end.offset!;
    switch (child.type) {
      case 'text':
        prose.texts.push({ start, end });
        break;
      case 'html':
        if (blockLevel) prose.blockHtml.push({ start, end, value: child.value });
        break;
      case 'code':
      case 'inlineCode':
        break;
      case 'link':
        if (body[start] !== '<') walk(child, body, prose, false);
        break;
      default:
        if ('children' in child) walk(child, body, prose, child.type === 'blockquote' || child.type === 'list' || child.type === 'listItem');
    }
  }
}

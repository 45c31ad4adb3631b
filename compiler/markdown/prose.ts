/**
 * Where a Markdown body's prose is: the text nodes remark-parse's mdast tree
 * would hold outside code, HTML, autolinks, images, definitions and link
 * destinations, and its block-level HTML — read from micromark's events (the
 * tokenizer remark-parse runs) without building the tree. The scanner reads
 * nothing else of the tree, and building it costs about a quarter of the
 * parse, which is most of a cold build (bench/, issue 2).
 *
 * Text nodes are delimited as mdast-util-from-markdown delimits them, so each
 * range is exactly a text node's position: consecutive text-like tokens of one
 * parent merge; any other child ends the run; a line ending is text inside a
 * paragraph, heading, emphasis, strong or link label, except after a hard
 * break and between a setext heading's text and its underline. The tests hold
 * this against remark-parse's tree, on real prompt files and generated ones.
 */
import { parse, postprocess, preprocess } from 'micromark';
import type { ParseContext, Token } from 'micromark-util-types';
import { withInPlaceEdits } from './micromark-edits.js';

export interface Range {
  start: number;
  end: number;
}

export interface Prose {
  /** Text nodes, in document order. */
  texts: Range[];
  /** Block-level HTML nodes, with their value (the HTML without container prefixes). */
  blockHtml: Array<Range & { value: string }>;
}

/** Tokens whose whole span holds no prose: their text is never a text node of the tree, or not of one the scanner reads. */
const OPAQUE: ReadonlySet<string> = new Set(['codeFenced', 'codeIndented', 'codeText', 'htmlFlow', 'htmlText', 'autolink', 'image', 'definition', 'resource', 'reference']);
/** Tokens that open a node (from-markdown's openers, the opaque ones aside); `label` is a link's text, which becomes its children. */
const NODES: ReadonlySet<string> = new Set([
  'atxHeading',
  'blockQuote',
  'emphasis',
  'hardBreakEscape',
  'hardBreakTrailing',
  'label',
  'link',
  'listOrdered',
  'listUnordered',
  'paragraph',
  'setextHeading',
  'strong',
  'thematicBreak',
]);
/** Where a line ending is text (from-markdown's `canContainEols`; its "fragment" is a link label here). */
const LINE_ENDING_IS_TEXT: ReadonlySet<string> = new Set(['atxHeading', 'emphasis', 'label', 'paragraph', 'setextHeading', 'strong']);

interface Frame {
  type: string;
  /** The text node this node's children end with, if they end with one: the next text token extends it. */
  text: Range | null;
}

/**
 * A micromark parser for the parts of one body. Making one combines all of
 * micromark's constructs, which costs more than tokenizing a short part: a
 * body of 95,000 list items cut into as many parts spent a third of its
 * build there.
 */
export function markdownParser(): ParseContext {
  return parse();
}

export function proseOf(body: string, parser: ParseContext = parse()): Prose {
  // What a parser learns of one document (definitions, lazy lines) must not reach the next.
  parser.defined = [];
  parser.lazy = {};
  // In-place edits: micromark's own copy all events per list item, so a long list costs its length squared.
  const events = withInPlaceEdits(() => postprocess(parser.document().write(preprocess()(body, undefined, true))));
  const texts: Range[] = [];
  const blockHtml: Prose['blockHtml'] = [];
  const stack: Frame[] = [{ type: 'root', text: null }];
  let opaque: Token | null = null;
  let html = '';
  let atHardBreak = false;
  let inSetextUnderline = false;

  const extendText = (frame: Frame, token: Token) => {
    if (frame.text) frame.text.end = token.end.offset;
    else texts.push((frame.text = { start: token.start.offset, end: token.end.offset }));
  };

  for (const [kind, token, context] of events) {
    const { type } = token;
    if (opaque) {
      if (kind === 'enter') continue;
      if (token === opaque) {
        if (type === 'htmlFlow') blockHtml.push({ start: opaque.start.offset, end: opaque.end.offset, value: html });
        opaque = null;
      } else if (opaque.type === 'htmlFlow' && (type === 'htmlFlowData' || type === 'lineEnding')) {
        // As from-markdown reads it: a tab that a container's indent cut in two counts its remaining columns as spaces.
        html += context.sliceSerialize(token);
      }
      if (type === 'lineEnding') atHardBreak = false;
      continue;
    }
    const frame = stack[stack.length - 1]!;
    if (kind === 'enter') {
      if (OPAQUE.has(type)) {
        frame.text = null;
        opaque = token;
        html = '';
      } else if (NODES.has(type)) {
        frame.text = null;
        stack.push({ type, text: null });
      } else if (type === 'data' || type === 'characterEscape' || type === 'characterReference') {
        extendText(frame, token);
      }
      continue;
    }
    if (NODES.has(type)) {
      stack.pop();
      if (type === 'hardBreakEscape' || type === 'hardBreakTrailing') atHardBreak = true;
      else if (type === 'setextHeading') inSetextUnderline = false;
    } else if (type === 'data' || type === 'characterEscapeValue' || type === 'characterReference') {
      extendText(frame, token);
    } else if (type === 'setextHeadingText') {
      inSetextUnderline = true;
    } else if (type === 'lineEnding') {
      // The line ending after a hard break belongs to the break.
      if (atHardBreak) atHardBreak = false;
      else if (!inSetextUnderline && LINE_ENDING_IS_TEXT.has(frame.type)) extendText(frame, token);
    }
  }
  return { texts, blockHtml };
}

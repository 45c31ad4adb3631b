/**
 * `remarkPromptBuild`: a unified plugin that parses a prompt source to mdast
 * as prompt-build reads it (docs/lint.md#the-tree) — frontmatter as a `yaml`
 * node (remark-frontmatter), each include directive as an `include` node,
 * each `{{…}}` of a dynamic section as a `template` node, every node with
 * its position. It parses (remark-parse is part of it), so
 * `unified().use(remarkPromptBuild)` is a whole parser; remark plugins
 * used after it see the prompt-build nodes.
 *
 * The build itself builds no tree: it reads micromark's events
 * (markdown/prose.ts), and runs this only for a project's plugins.
 */
import type { Root } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkParse from 'remark-parse';
import type { Construct, Effects, Extension, State, TokenizeContext } from 'micromark-util-types';
import type { Processor } from 'unified';
import { DEFAULT_LIMITS } from '../core/options.js';
import { withInPlaceEdits } from '../markdown/micromark-edits.js';
import { splitFrontmatter } from '../markdown/source.js';
import { addIncludeNodes } from './include-nodes.js';
import { templateFromMarkdown, templateSyntax } from './template-syntax.js';
import { pieceRecorder, type Pieces } from './text-pieces.js';

export type SectionKind = 'static' | 'dynamic';

export interface PromptBuildOptions {
  /** What the document is; default: what its frontmatter's `kind:` says, as the build reads it (a document without one is static). */
  kind?: SectionKind;
  /** Extensions (with the dot) a word may end in to be an include without `./`, `../`, `~/` or `/` (default: the build's). */
  extensions?: readonly string[];
}

declare module 'mdast' {
  interface RootData {
    /** Set by `remarkPromptBuild`: what the document was read as. */
    promptBuild?: { kind: SectionKind };
  }
}

export function remarkPromptBuild(this: Processor, options: PromptBuildOptions | null | undefined = {}): undefined {
  const self = this;
  const extensions = options?.extensions ?? DEFAULT_LIMITS.extensions;
  // What the document being parsed is, as the build reads it: set just before it is parsed (parsing is synchronous),
  // read by the template syntax at each `{` and by the frontmatter syntax at the start.
  const parsing = { dynamic: false, frontmatter: false };
  const pieces: Pieces = new WeakMap();
  (remarkParse as unknown as (this: Processor) => void).call(self);
  const data = self.data();
  const syntax = (data.micromarkExtensions ??= []);
  (remarkFrontmatter as unknown as (this: Processor, options: string) => void).call(self, 'yaml');
  // remark-frontmatter's syntax, only where the build reads frontmatter: a `---` never closed is no frontmatter to the build,
  // and the syntax's attempt at one changes how the lines after it read (a block quote read as a paragraph's lines).
  syntax.push(gated(syntax.pop()!, () => parsing.frontmatter));
  syntax.push(templateSyntax(() => parsing.dynamic));
  (data.fromMarkdownExtensions ??= []).push(templateFromMarkdown, pieceRecorder(pieces));
  const parse = self.parser!;
  self.parser = (doc, file) => {
    const read = frontmatterOf(doc);
    const kind = options?.kind ?? read.kind;
    parsing.dynamic = kind === 'dynamic';
    parsing.frontmatter = read.closed;
    let tree: Root;
    try {
      // micromark's own edits copy every event per list item: a long list would cost its length squared (markdown/micromark-edits.ts).
      tree = withInPlaceEdits(() => parse(doc, file) as Root);
    } finally {
      parsing.dynamic = false;
      parsing.frontmatter = false;
    }
    addIncludeNodes(tree, doc, pieces, extensions);
    tree.data = { ...tree.data, promptBuild: { kind } };
    return tree;
  };
}

/**
 * A source's frontmatter as the build reads it (markdown/source.ts): whether
 * it has one that closes, and its kind (`kind: dynamic`, else static).
 */
function frontmatterOf(doc: string): { closed: boolean; kind: SectionKind } {
  if (!doc.startsWith('---')) return { closed: false, kind: 'static' };
  const { data, bodyOffset } = splitFrontmatter(doc);
  return { closed: bodyOffset > 0, kind: data.kind === 'dynamic' ? 'dynamic' : 'static' };
}

/** A micromark extension whose constructs try only while `open()` says so, and otherwise are not there. */
function gated(extension: Extension, open: () => boolean): Extension {
  const gate = (construct: Construct): Construct => ({
    ...construct,
    tokenize(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
      return open() ? construct.tokenize.call(this, effects, ok, nok) : (code) => nok(code);
    },
  });
  const out: Record<string, unknown> = {};
  for (const [field, record] of Object.entries(extension)) {
    if (field === 'disable' || field === 'attentionMarkers' || field === 'insideSpan' || record === undefined) {
      out[field] = record;
      continue;
    }
    const constructs = record as Record<string, Construct | Construct[]>;
    out[field] = Object.fromEntries(Object.entries(constructs).map(([code, c]) => [code, Array.isArray(c) ? c.map(gate) : gate(c)]));
  }
  return out as Extension;
}

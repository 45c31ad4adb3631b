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
  // Read by the template syntax at each `{` while one document is parsed (parsing is synchronous), set just before.
  const parsing = { dynamic: false };
  const pieces: Pieces = new WeakMap();
  (remarkParse as unknown as (this: Processor) => void).call(self);
  (remarkFrontmatter as unknown as (this: Processor, options: string) => void).call(self, 'yaml');
  const data = self.data();
  (data.micromarkExtensions ??= []).push(templateSyntax(() => parsing.dynamic));
  (data.fromMarkdownExtensions ??= []).push(templateFromMarkdown, pieceRecorder(pieces));
  const parse = self.parser!;
  self.parser = (doc, file) => {
    const kind = options?.kind ?? kindOf(doc);
    parsing.dynamic = kind === 'dynamic';
    let tree: Root;
    try {
      // micromark's own edits copy every event per list item: a long list would cost its length squared (markdown/micromark-edits.ts).
      tree = withInPlaceEdits(() => parse(doc, file) as Root);
    } finally {
      parsing.dynamic = false;
    }
    addIncludeNodes(tree, doc, pieces, extensions);
    tree.data = { ...tree.data, promptBuild: { kind } };
    return tree;
  };
}

/** A source's kind as the build reads it (markdown/source.ts): `kind: dynamic` in its frontmatter, else static. */
function kindOf(doc: string): SectionKind {
  if (!doc.startsWith('---') || !doc.includes('dynamic')) return 'static';
  return splitFrontmatter(doc).data.kind === 'dynamic' ? 'dynamic' : 'static';
}

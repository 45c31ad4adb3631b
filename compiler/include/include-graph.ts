/**
 * Step 1 of compile-mode expansion (see expand.ts): every file the includes
 * of a text reach, loaded once each, level by level, with the edits of its
 * body — includes to splice in, comments to remove, constants to write.
 */
import type { CommentPolicy } from '../core/options.js';
import type { Directive } from '../markdown/scan.js';
import type { ReadFailure, Source } from '../markdown/source.js';
import type { RuleId } from '../diagnostics/diagnostics.js';
import { constantReferences } from './constants.js';
import { relativeToRoot, resolveCompileTarget, type IncludeHost } from './include.js';

/**
 * How one text is made from its source's body. `verbatim`: the body as
 * written, byte for byte: no include expanded, no comment removed.
 * `comments`: the text's own policy; an included file may set its own with
 * `comments:` in its frontmatter. `trimLeadingBlankLines`: what Claude Code
 * does to an agent's body.
 */
export type TextPolicy =
  | { verbatim: true }
  | { verbatim: false; comments: CommentPolicy; trimLeadingBlankLines: boolean };


/** What a file's frontmatter says of its comments, if anything. */
export function ownCommentPolicy(source: Pick<Source, 'data'>): CommentPolicy | undefined {
  const written = source.data.comments;
  return written === 'keep' || written === 'strip' ? written : undefined;
}

/** What a directive leads to: the same wherever its file is included. */
export type Link =
  | { kind: 'refused'; rule: RuleId; message: string; note?: string; watched: string[] }
  | { kind: 'file'; file: string; rel: string; watched: string[] };

/** One splice in a body: an include (replaced by its target), or a comment or leading blank lines (deleted). */
export interface Edit {
  start: number;
  end: number;
  include: { directive: Directive; link: Link } | null;
  /** Leading blank lines of an agent body, not a comment. */
  trim?: true;
  /** A build-time constant's value, written in place of its `{{const.NAME}}`. */
  value?: string;
}

/** A loaded file with its edits in body order. */
export interface Node {
  source: Source;
  edits: Edit[];
  /** `{{const.NAME}}` references: body offset → the name (known or not). */
  constants?: Map<number, string>;
  /** Every character of the body is ASCII: a slice's UTF-8 length is its length. */
  ascii: boolean;
}

export interface Graph {
  nodes: Map<Source, Node>;
  /** Real path → what loading it gave, for every target within the depth limit. */
  loaded: Map<string, Source | ReadFailure>;
}

/**
 * Resolves and loads, breadth first, every file the includes of `top` can
 * reach. A file's targets are loaded when the shortest chain to it leaves
 * room under the depth limit: the walk can include nothing else.
 */
export async function loadGraph(top: Source, host: IncludeHost, policy: TextPolicy): Promise<Graph> {
  const graph: Graph = { nodes: new Map(), loaded: new Map() };
  let level = [top];
  for (let chainLength = 1; level.length > 0; chainLength++) {
    const loads: Array<Promise<Source | ReadFailure>> = [];
    for (const source of level) {
      const node = source === top ? topNode(source, host, policy) : makeNode(source, host, ownCommentPolicy(source) ?? (policy.verbatim ? 'keep' : policy.comments));
      graph.nodes.set(source, node);
      if (chainLength > host.limits.maxDepth) continue;
      for (const { include } of node.edits) {
        const link = include?.link;
        if (link?.kind !== 'file' || graph.loaded.has(link.file)) continue;
        const file = link.file;
        // A placeholder until it settles, so the file is asked for once.
        graph.loaded.set(file, { kind: 'missing' });
        loads.push(host.load(file).then((loaded) => (graph.loaded.set(file, loaded), loaded)));
      }
    }
    const settled = await Promise.all(loads);
    level = [...new Set(settled.filter((l): l is Source => !('kind' in l) && !graph.nodes.has(l)))];
  }
  return graph;
}

function topNode(source: Source, host: IncludeHost, policy: TextPolicy): Node {
  if (policy.verbatim) return { source, edits: [], ascii: !NON_ASCII.test(source.body) };
  const node = makeNode(source, host, policy.comments);
  const blank = policy.trimLeadingBlankLines ? /^(?:[ \t]*\n)+/.exec(source.body) : null;
  // Removed like a comment, so the source map still points each byte at where it was written; not counted as one.
  if (blank && !node.edits.some((e) => e.start < blank[0].length)) node.edits.unshift({ start: 0, end: blank[0].length, include: null, trim: true });
  return node;
}

function makeNode(source: Source, host: IncludeHost, policy: CommentPolicy): Node {
  const resolved = new Map<string, Link>();
  const linkFor = (written: string): Link => {
    let link = resolved.get(written);
    if (!link) {
      const watched: string[] = [];
      const r = resolveCompileTarget(written, source.path, host, watched);
      link = r.ok
        ? { kind: 'file', file: r.file, rel: relativeToRoot(host.root, r.file), watched }
        : { kind: 'refused', rule: r.rule, message: r.message, ...(r.note === undefined ? {} : { note: r.note }), watched };
      resolved.set(written, link);
    }
    return link;
  };
  const { directives, comments } = source.scan;
  const edits: Edit[] = directives.map((directive) => ({ start: directive.start, end: directive.end, include: { directive, link: linkFor(directive.path) } }));
  const removed = policy === 'strip' ? comments : [];
  for (const range of removed) edits.push({ start: range.start, end: range.end, include: null });
  const constants = constantReferences(source.body, removed);
  for (const [start, { name, end }] of constants) {
    const value = Object.hasOwn(host.constants, name) ? host.constants[name] : undefined;
    if (value !== undefined) edits.push({ start, end, include: null, value });
  }
  if (edits.length > 1) edits.sort((a, b) => a.start - b.start);
  const node: Node = { source, edits, ascii: !NON_ASCII.test(source.body) };
  if (constants.size > 0) node.constants = new Map([...constants].map(([start, { name }]) => [start, name]));
  return node;
}


export const NON_ASCII = /[^\x00-\x7f]/;

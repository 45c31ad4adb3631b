/**
 * Compile mode of the @include resolver (docs/authoring.md#include-syntax): a source's body with
 * every directive replaced by the included body and maintainer comments
 * removed, with the source map of the result. Its cost follows the size of
 * the result, whatever the shape of the includes:
 *
 *  1. `loadGraph` resolves every directive of every file the includes reach
 *     and loads each target, once per file, level by level;
 *  2. `expandGraph` walks the includes depth first with a stack of its own
 *     (a 10,000-level chain is no deeper a recursion than one), appending
 *     slices of the sources to one text and its segments to one map — no
 *     included text is built and then copied into its includer's.
 *
 * A diamond inlines twice (§3.7), so includes can fan out exponentially:
 * five files including the next ten times each make 700 bytes of sources
 * into 69 MB. The walk counts the UTF-8 bytes it appends and stops as soon as
 * the text is certain to go over the expanded-size limit (§3.10), with one
 * diagnostic at the directive in the source that led there, naming the chain.
 * It counts the source map too: every segment lists its include chain, so
 * deep chains of short pieces make a map many times the text (a 10,000-level
 * chain, 1.4 GB); the map may be `MAP_BYTES_PER_BYTE` times the limit.
 */
import { diagnostic, InternalError, type Diagnostic, type RuleId } from '../diagnostics/diagnostics.js';
import { joinedBraces, unknownConstant } from './constants.js';
import { chainGuard, failureDiagnostic, type IncludeHost } from './include.js';
import { loadGraph, type Graph, type Link, type Node, type TextPolicy } from './include-graph.js';
import { chainThrough, NO_CHAIN, TextBuilder, type Chain, type TextSegment } from './expanded-text.js';
import { lineIndexOf } from '../core/line-index.js';
import { scanLimitDiagnostic, type Directive } from '../markdown/scan.js';
import { problemToDiagnostic, type Source } from '../markdown/source.js';
import { invisibleCharacterProblems } from '../markdown/control-chars.js';

export type { TextSegment };
export { ownCommentPolicy, type TextPolicy } from './include-graph.js';

export interface TemplateHit {
  file: string;
  offset: number;
}

/** A block-level HTML comment the comment policy removed. */
export interface RemovedComment {
  /** UTF-16 offset in the expanded text where it was (the manifest gives it in UTF-8 bytes). */
  at: number;
  /** Root-relative path of the file it is written in, and the 1-based line where it starts. */
  file: string;
  line: number;
  /** UTF-8 bytes removed. */
  bytes: number;
}

export interface Expansion {
  /** The expanded text; empty when it went over the expanded-size limit. */
  text: string;
  /** Where each range of `text` (UTF-16 offsets) comes from. */
  segments: TextSegment[];
  /** The text went over the expanded-size limit: a diagnostic says where, and `text` is not the text. */
  tooLarge: boolean;
  /** Root-relative paths of every file included, transitively (sorted). */
  dependencies: string[];
  /** Absolute paths whose appearance or change can change this expansion (includes, even missing ones). */
  watched: string[];
  /** Direct include edges found on the way: includer → included (root-relative), each once. */
  edges: Array<[string, string]>;
  /** `{{` found in prose of any expanded file (offsets in that file's text), each once. */
  templates: TemplateHit[];
  /** Block-level HTML comments removed, their UTF-8 bytes, and each one in text order (none listed when `tooLarge`). */
  stripped: { comments: number; bytes: number; removed: RemovedComment[] };
  diagnostics: Diagnostic[];
}

/**
 * How much larger than the expanded-size limit a text's source map may be:
 * room for 100,000 pieces five includes deep (a fan-out at the limit), not for
 * the megabytes of path that thousands of nested levels repeat in each piece.
 */
export const MAP_BYTES_PER_BYTE = 64;
/** …and at least this, so that a small limit does not refuse the map of a text it lets through. */
const MIN_MAP_BYTES = 1024 * 1024;

/** Compile mode: the source's body with every directive replaced and, where the policy says so, comments removed. */
export async function expandIncludes(source: Source, host: IncludeHost, policy: TextPolicy): Promise<Expansion> {
  return expandGraph(source, await loadGraph(source, host, policy), host);
}


/** A file being expanded: where its walk stands. */
interface Frame {
  node: Node;
  /** Index of its next edit. */
  next: number;
  /** Body offset copied up to. */
  cursor: number;
  /** Its segments' include chain (empty for the source itself). */
  chain: Chain;
  /** The chain of each file it includes, from the source down to it, by path: one array for repeated includes. */
  childChains: Map<string, Chain> | null;
  /** Length of the text when it began: its final newline, if it ends with one, is dropped (§3.7). */
  start: number;
  /** The directive of its includer that brought it in (null for the source itself). */
  via: Directive | null;
}

/** Where the text (or its map) first went over the limit: the chain of files open then. */
interface Crossing {
  map: boolean;
  chain: string[];
  /** The directive in the source under which it happened, or the body offset in the source itself. */
  at: Directive | number;
}

function expandGraph(top: Source, graph: Graph, host: IncludeHost): Expansion {
  const { limits } = host;
  const limit = limits.maxExpandedBytes ?? limits.maxBytes;
  const out = new TextBuilder(limit);
  const report = new Reports();
  const dependencies = new Set<string>();
  const watched = new Set<string>();
  const edges = new Map<string, [string, string]>();
  const templates: TemplateHit[] = [];
  const stripped = { comments: 0, bytes: 0 };
  const removed: RemovedComment[] = [];
  const visited = new Set<Node>();
  const visit = (node: Node): void => {
    if (visited.has(node)) return;
    visited.add(node);
    const { source } = node;
    // A constant is resolved here, not a template: only what is left of `{{` is.
    for (const offset of source.scan.templates) if (!node.constants?.has(offset)) templates.push({ file: source.rel, offset: source.bodyOffset + offset });
    for (const [offset, name] of node.constants ?? []) {
      if (!Object.hasOwn(host.constants, name)) report.add(unknownConstant(source, offset, name, host.constants));
    }
    for (const edit of node.edits) {
      const joined = edit.value === undefined ? null : joinedBraces(source, edit.start, edit.end, node.constants?.get(edit.start) ?? '', edit.value);
      if (joined) report.add(joined);
    }
    if (node.source === top) return;
    for (const problem of source.problems) report.add(problemToDiagnostic(source, problem));
    // An included file's text goes into the prompt: its control characters are reported at it, as the includer's own are.
    for (const problem of invisibleCharacterProblems(source.text)) report.add(problemToDiagnostic(source, problem));
    const tooDeep = scanLimitDiagnostic(source);
    if (tooDeep) report.add(tooDeep);
  };
  const nodeOf = (source: Source): Node => {
    const node = graph.nodes.get(source);
    if (!node) throw new InternalError(`include graph has no node for ${source.rel}`);
    return node;
  };

  const topNode = nodeOf(top);
  visit(topNode);
  const stack: Frame[] = [{ node: topNode, next: 0, cursor: 0, chain: NO_CHAIN, childChains: null, start: 0, via: null }];
  /** Path of each file on the stack → its index: the cycle guard. */
  const onStack = new Map<string, number>([[top.path, 0]]);

  let crossing: Crossing | null = null;
  // After the source's last slice its frame is gone from the stack: the chain is the source alone.
  const crossingHere = (map: boolean): Crossing => ({ map, chain: stack.length > 0 ? stack.map((f) => f.node.source.rel) : [top.rel], at: stack[1]?.via ?? out.crossedAt });
  const mapLimit = Math.max(limit * MAP_BYTES_PER_BYTE, MIN_MAP_BYTES);
  /** After each change of the text: notes where it went over the limit; true once it cannot end under it. */
  const overflows = (): boolean => {
    if (out.mapBytes > mapLimit) {
      crossing = crossingHere(true);
      return true;
    }
    if (out.bytes <= limit) {
      crossing = null;
      return false;
    }
    crossing ??= crossingHere(false);
    // Each open include may still drop its final newline, one byte.
    return out.bytes - (stack.length - 1) > limit;
  };
  const crossed = (): Crossing => crossing ?? { map: false, chain: [top.rel], at: 0 };

  /** The frame of an include, or null when a guard refuses it (a diagnostic says why). */
  const enter = (frame: Frame, directive: Directive, link: Link): Frame | null => {
    const includer = frame.node.source;
    const refuse = (rule: RuleId, message: string, note?: string): null => {
      report.at(includer, directive, rule, message, note);
      return null;
    };
    for (const file of link.watched) watched.add(file);
    if (link.kind === 'refused') return refuse(link.rule, link.message, link.note);
    const refused = chainGuard(() => stack.map((f) => f.node.source.rel), stack.length, onStack.get(link.file) ?? -1, link.rel, limits.maxDepth);
    if (refused) return refuse(refused.rule, refused.message, refused.rule === 'include/depth' ? 'flatten the chain, or raise the limit (--max-include-depth)' : undefined);
    edges.set(`${includer.rel}\0${link.rel}`, [includer.rel, link.rel]);
    dependencies.add(link.rel);
    const loaded = graph.loaded.get(link.file);
    if (!loaded) throw new InternalError(`include target not loaded: ${link.rel}`);
    if ('kind' in loaded) return refuse(...failureDiagnostic(loaded, directive.path, limits));
    const node = nodeOf(loaded);
    visit(node);
    frame.childChains ??= new Map();
    let chain = frame.childChains.get(link.file);
    if (!chain) frame.childChains.set(link.file, (chain = chainThrough(frame.chain, includer.rel, link.rel)));
    return { node, next: 0, cursor: 0, chain, childChains: null, start: out.length, via: directive };
  };

  let stopped = false;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { node } = frame;
    const edit = node.edits[frame.next];
    if (!edit) {
      out.copy(node, frame.cursor, node.source.body.length, frame.chain);
      stack.pop();
      onStack.delete(node.source.path);
      if (stack.length > 0) {
        out.dropFinalNewline(frame.start);
        // A comment removed just before that newline now sits at the text's new end, not past it.
        for (let i = removed.length - 1; i >= 0 && removed[i]!.at > out.length; i--) removed[i]!.at = out.length;
      }
      if ((stopped = overflows())) break;
      continue;
    }
    frame.next++;
    out.copy(node, frame.cursor, edit.start, frame.chain);
    frame.cursor = edit.end;
    if ((stopped = overflows())) break;
    if (!edit.include) {
      if (edit.value !== undefined) out.insert(node, edit.start, edit.value, frame.chain);
      if (edit.trim || edit.value !== undefined) continue;
      const bytes = Buffer.byteLength(node.source.body.slice(edit.start, edit.end));
      stripped.comments++;
      stripped.bytes += bytes;
      const { source } = node;
      removed.push({ at: out.length, file: source.rel, line: lineIndexOf(source).lineOf(source.bodyOffset + edit.start), bytes });
      out.noteRemovedComment(source.rel);
      if ((stopped = overflows())) break;
      continue;
    }
    const child = enter(frame, edit.include.directive, edit.include.link);
    if (child) {
      stack.push(child);
      onStack.set(child.node.source.path, stack.length - 1);
    } else {
      out.copy(node, edit.start, edit.end, frame.chain);
      if ((stopped = overflows())) break;
    }
  }

  const tooLarge = stopped || out.bytes > limit;
  if (tooLarge) report.overflow(top, crossed(), limit, mapLimit);
  return {
    text: tooLarge ? '' : out.text(),
    segments: tooLarge ? [] : out.segments,
    tooLarge,
    dependencies: [...dependencies].sort(),
    watched: [...watched].sort(),
    edges: [...edges.values()],
    templates,
    stripped: { ...stripped, removed: tooLarge ? [] : removed },
    diagnostics: report.diagnostics,
  };
}

/** The diagnostics of one expansion, each once: a file included a thousand times reports its broken include once. */
class Reports {
  readonly diagnostics: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(d: Diagnostic): void {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.rule}\0${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.diagnostics.push(d);
  }

  at(source: Source, directive: Directive, rule: RuleId, message: string, note?: string): void {
    const at = lineIndexOf(source).positionAt(source.bodyOffset + directive.start);
    this.add(diagnostic(rule, source.rel, at, message, note === undefined ? {} : { note }));
  }

  overflow(top: Source, crossing: Crossing, limit: number, mapLimit: number): void {
    if (crossing.map) {
      const chain = crossing.chain.join(' → ');
      const note =
        'each piece of the text lists, in the source map, the include chain it came through, and each removed comment its position in the manifest; ' +
        'include less deeply, or raise the limit (--max-expanded-bytes)';
      const message = `with its includes expanded, the text's source map goes over ${mapLimit} bytes (${MAP_BYTES_PER_BYTE} times the ${limit}-byte limit, or 1 MiB) in ${chain}`;
      if (typeof crossing.at === 'number') this.add(diagnostic('include/too-large-expanded', top.rel, lineIndexOf(top).positionAt(top.bodyOffset + crossing.at), message, { note }));
      else this.at(top, crossing.at, 'include/too-large-expanded', message, note);
      return;
    }
    const note = 'includes multiply: a file included n times by a file included m times is inlined n × m times; include less, or raise the limit (--max-expanded-bytes)';
    if (typeof crossing.at === 'number') {
      const at = lineIndexOf(top).positionAt(top.bodyOffset + crossing.at);
      this.add(diagnostic('include/too-large-expanded', top.rel, at, `with its includes expanded, the text goes over the ${limit}-byte limit here`, { note }));
    } else {
      const chain = crossing.chain.join(' → ');
      this.at(top, crossing.at, 'include/too-large-expanded', `with its includes expanded, the text goes over the ${limit}-byte limit in ${chain}`, note);
    }
  }
}

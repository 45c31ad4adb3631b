/**
 * The bundle contract: the shape of `dist/manifest.json` and of the files it
 * names. The compiler writes it, the runtime reads it; this file is the only
 * thing the two share, so it lives on the runtime side (the runtime must not
 * import from the compiler stages).
 *
 * Every path is relative to the bundle directory and uses `/`.
 */

/** Bumped on any incompatible change; `loadBundle` refuses other versions. */
export const SCHEMA_VERSION = 1;

export type SectionKind = 'static' | 'dynamic';
export type CachePolicy = 'cached' | 'uncached';

/** What every emitted text records: its artifact, size, and where it is written. */
export interface TextEntry {
  name: string;
  /** Artifact path: `static/<name>.<hash>.md`, `dynamic/<name>.<hash>.js` or `agents/<name>.<hash>.md`. */
  file: string;
  /** sha256 hex of the artifact's bytes. */
  hash: string;
  /** Byte size (UTF-8) of the text: the static text or agent prompt, or the template source for dynamic sections. */
  bytes: number;
  /** Tokens of that text by the first configured model's counter (its entry in `tokenCounts`). */
  tokens: number;
  /** The text's count by every counter the configured models use, keyed by counter name (`o200k_base`, `claude-3-to-4-6-estimate`…). */
  tokenCounts?: Record<string, TokenCount>;
  /** Root-relative path of the source file the text is written in. */
  source: string;
  /** Block-level HTML comments the comment policy removed from the text; absent when none were. */
  stripped?: StrippedComments;
  /** Line of `source` where the text starts. */
  line: number;
  /**
   * Source map of the text (`maps/<kind>/<name>.<hash>.json`, see `SourceMap`);
   * absent when the text is one unbroken piece of `source` from `line` on.
   */
  map?: string;
  /** sha256 hex of the source map's bytes, beside `map` (additive: absent in bundles from before it was recorded). */
  mapHash?: string;
}

/** What the comment policy removed from one text: the count, the UTF-8 bytes, and where each comment was. */
export interface StrippedComments {
  comments: number;
  bytes: number;
  /**
   * Each removed comment, in text order (by `offset`). Additive: absent in
   * bundles built before positions were recorded, so the schema version stays.
   */
  at?: StrippedComment[];
}

export interface StrippedComment {
  /**
   * UTF-8 byte offset in the emitted text (the artifact: the static text or
   * agent prompt, or a dynamic section's template source), as in
   * `SourceMapSegment`: what came before the comment ends here, what came
   * after it starts here.
   */
  offset: number;
  /** Root-relative path of the file the comment is written in: an included fragment names itself. */
  file: string;
  /** 1-based line in `file` where the comment starts. */
  line: number;
  /** UTF-8 bytes removed: the comment with its line break, and the blank line after it when it stood between blank lines. */
  bytes: number;
}

export interface StaticSectionEntry extends TextEntry {
  kind: 'static';
}

export interface DynamicSectionEntry extends TextEntry {
  kind: 'dynamic';
  cache: CachePolicy;
  /** Present exactly when `cache` is `uncached`: why it must be recomputed every turn. */
  reason?: string;
  /** The resolved Handlebars source kept beside the thunk: `dynamic/<name>.<hash>.hbs`. */
  template: string;
  /** sha256 hex of the template's bytes (additive: absent in bundles from before it was recorded). */
  templateHash?: string;
  /** Context variables the template reads (top-level names), sorted. */
  inputs: string[];
  /** The subset of `inputs` that may be missing from the context. */
  optional: string[];
  /**
   * The section's Python render module (`dynamic/<name>.<hash>.py`) for the
   * Python runtime, with the sha256 of its bytes; present when the bundle
   * was built with the `python` target. Additive: runtimes that do not read
   * Python ignore both fields, so the schema version stays.
   */
  python?: string;
  pythonHash?: string;
}

export type SectionEntry = StaticSectionEntry | DynamicSectionEntry;

export interface ProfileEntry {
  name: string;
  description: string;
  source: string;
  /** Ordered: every static section comes before every dynamic one. */
  sections: SectionEntry[];
  /** Index of the first dynamic section (= number of static sections). */
  boundaryIndex: number;
  /** sha256 over the ordered static hashes: the global prompt-cache key. */
  staticPrefixHash: string;
  /** Sum of the static sections' `tokens`. */
  staticTokens: number;
  /** Sums of the static sections' `tokenCounts`, per counter: exact only when every part is. */
  staticTokenCounts?: Record<string, TokenCount>;
}

/** A count and how it was made: `exact` (a provider's tokenizer or counting endpoint) or an `estimate`. */
export interface TokenCount {
  tokens: number;
  method: 'exact' | 'estimate';
}

export interface AgentEntry extends TextEntry {
  description: string;
  tools: string[];
  model?: string;
  temperature?: number;
  maxTokens?: number;
  /** Frontmatter keys prompt-build does not interpret, kept as written. */
  extra?: Record<string, unknown>;
}

/** A text of a Claude Code project (docs/claude-code.md): its compiled body and the frontmatter Claude Code reads, as written. */
export interface ClaudeCodeEntry extends TextEntry {
  fields: Record<string, unknown>;
}

/** A skill: its `SKILL.md` (`name` is the skill folder's), and its reference files by their path in the folder. */
export interface ClaudeSkillEntry extends ClaudeCodeEntry {
  files?: Record<string, TextEntry>;
}

/**
 * The rest of a Claude Code project, when the config names its folders
 * (additive: absent from a bundle that has none, so the schema version stays;
 * the runtimes do not read it). Each kind by its key: a skill by its folder,
 * a command by its name (`frontend:component`), an output style and a rule by
 * their path in the folder without `.md`; the files Claude Code would skip by
 * path, with why.
 */
export interface ClaudeCodeBundle {
  skills?: Record<string, ClaudeSkillEntry>;
  commands?: Record<string, ClaudeCodeEntry>;
  outputStyles?: Record<string, ClaudeCodeEntry>;
  rules?: Record<string, ClaudeCodeEntry>;
  skipped?: Record<string, SkippedAgent>;
}

/** Why an agent file is not in the bundle: the diagnostic that said so. */
export interface SkippedAgent {
  rule: string;
  reason: string;
}

export interface SourceEntry {
  /** sha256 of the source file's bytes. */
  hash: string;
  /** Root-relative paths this file includes directly, sorted. */
  includes: string[];
}

/** The build options that shaped the bundle's bytes (see `outputOptions`); absent in bundles from before it was recorded. */
export interface OutputOptions {
  /** sha256 over the values below. */
  hash: string;
  /** The project's comment policy, for files that do not set their own. */
  comments: 'keep' | 'strip';
  /** sha256 of the build-time constants, null when there are none. */
  constants: string | null;
  agentsIgnore: string[];
  /**
   * What is done to an agent's body: its leading blank lines are removed, as
   * Claude Code trims them; its final newline is kept, where Claude Code
   * trims it (the text stays the file's bytes). Older bundles say
   * `leading-blank-lines-trimmed` for the same treatment.
   */
  agentBodies: 'leading-blank-lines-trimmed' | 'leading-blank-lines-trimmed, final-newline-kept';
  /**
   * How an agent's `description` is recorded: as YAML reads it, so a literal
   * `\n` (backslash, n) in a plain value stays two characters where Claude
   * Code shows a line end. Additive: absent in older bundles.
   */
  agentDescriptions?: 'as-read-from-yaml';
  /** The runtimes the bundle is for (`python`: each dynamic section has a Python module too). */
  targets: string[];
}

/**
 * The cache facts the build checked the static prefixes against (additive:
 * bundles without it read as before). Dates only — never the day of the
 * build — so the same sources give the same bytes.
 */
export interface CacheFactsInfo {
  /** The day (YYYY-MM-DD) the built-in facts were read from their sources. */
  read: string;
  /** The user's rows (`--cache-facts`, `cacheFacts`), when the build had any: how many, and the days they say they were read (sorted, unique). */
  user?: { rows: number; read: string[] };
}

export interface Manifest {
  schemaVersion: number;
  tool: { name: string; version: string; handlebars: string };
  options?: OutputOptions;
  cacheFacts?: CacheFactsInfo;
  profiles: Record<string, ProfileEntry>;
  agents: Record<string, AgentEntry>;
  /**
   * Agent files left out of `agents`, as Claude Code leaves them out (no
   * frontmatter, frontmatter it cannot read, no name or description), by
   * root-relative path. Additive: absent when none was.
   */
  skippedAgents?: Record<string, SkippedAgent>;
  claudeCode?: ClaudeCodeBundle;
  /** Every source that contributed to the bundle, keyed by root-relative path. */
  sources: Record<string, SourceEntry>;
}

/**
 * Where each byte range of an emitted text came from. Segments are ordered,
 * contiguous and cover the text; `chain` lists the include chain from the
 * section's own source down to `file` (empty when `file` is the section source).
 */
export interface SourceMap {
  output: string;
  segments: SourceMapSegment[];
}

export interface SourceMapSegment {
  /** Byte offsets [start, end) in the emitted text. */
  start: number;
  end: number;
  file: string;
  /** 1-based line in `file` where the segment starts. */
  line: number;
  chain: string[];
}

/**
 * A compiled dynamic section module (`dynamic/<name>.<hash>.js`). It imports
 * nothing: the runtime passes in what it needs, so the same file works loaded
 * from disk, inlined in `bundle.mjs`, or evaluated by another host.
 *
 *   export default function create(rt) { return (ctx) => string }
 */
export interface ThunkRuntime {
  /** Handlebars runtime (`handlebars/runtime`), for templates compiled by `Handlebars.precompile`. */
  handlebars: unknown;
  /** Throws the error for a required variable missing from the context. */
  missing(section: string, variable: string): never;
  /** Handlebars' string conversion of a value (no HTML escaping). */
  str(value: unknown): string;
  /**
   * A printed value as the output's `+` fold will use it (its primitive),
   * or a thrown RenderError naming `section` and `variable` when it has none.
   */
  text(value: unknown, section: string, variable: string): unknown;
  /** The RenderError to throw for anything else thrown while `section` rendered. */
  failed(section: string, error: unknown): Error;
}
export type ThunkFactory = (rt: ThunkRuntime) => (ctx: Record<string, unknown>) => string;

/**
 * The single-file bundle `dist/bundle.mjs`: one ES module with these named
 * exports, so a service can import the whole bundle with no file-system access.
 * Keys of `texts` and `thunks` are the artifact paths the manifest names.
 */
export interface BundleModule {
  manifest: Manifest;
  /** Every static section text and agent prompt, exactly as in the artifact files. */
  texts: Record<string, string>;
  /** Every dynamic section module's default export. */
  thunks: Record<string, ThunkFactory>;
}

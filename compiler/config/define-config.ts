/**
 * `prompt-build.config.*`: what a project sets once instead of on every
 * command line. This module is all a config file imports (`prompt-build/config`),
 * so loading a config does not load the compiler.
 */
import type { CacheFact } from '../cache-facts/cache-facts.js';
import type { CommentPolicy } from '../core/options.js';
import type { RuleLevel } from '../diagnostics/rule-levels.js';

export type { CommentPolicy, RuleLevel };

/**
 * A remark plugin (docs/lint.md#plugins): the plugin itself, or a package
 * name or a file (`./lint/my-rule.mjs`, relative to the root) that exports
 * one as its default.
 */
export type PluginRef = string | ((this: never, ...options: never[]) => unknown);
/** A plugin, or a plugin with its options: `[plugin, options]`. */
export type PluginConfig = PluginRef | [PluginRef] | [PluginRef, unknown];

/** A cache fact as `--cache-facts` files write it: `provider`, `family`, `ids` or `prefixes`, `minimumTokens` required. */
export type ConfigCacheFact = Partial<CacheFact> & Pick<CacheFact, 'provider' | 'family' | 'minimumTokens'>;

export interface ProjectConfig {
  /** Bundle directory, relative to the root (default `dist`). */
  out?: string;
  /**
   * Source folders, relative to the root: the prompt set (default `prompts`) and the agents (default `agents`; `.claude/agents` is where Claude Code reads them);
   * a Claude Code project's skills, commands, output styles and rules only when named (`.claude/skills`…: docs/claude-code.md).
   */
  sources?: { prompts?: string; agents?: string; skills?: string; commands?: string; outputStyles?: string; rules?: string };
  /** Model ids every profile's static prefix is checked against. */
  models?: string[];
  /** Cache facts used before the built-in ones: a JSON file (relative to the root) or the facts themselves. */
  cacheFacts?: string | ConfigCacheFact[];
  include?: {
    /** Nested include levels allowed (default 5). */
    maxDepth?: number;
    /** Largest source or included file, in bytes (default 1 MiB). */
    maxBytes?: number;
    /** Largest text once its includes are expanded (default: `maxBytes`). */
    maxExpandedBytes?: number;
    /** Extensions that may be included, with the dot. */
    extensions?: string[];
  };
  /** The default for files that do not say (`comments:` in frontmatter); `verbatim: true` always keeps. Default `strip`. */
  comments?: CommentPolicy;
  agents?: {
    /** Globs, relative to the agents folder, of files that are not agents (`README.md`, `drafts/**`). */
    ignore?: string[];
    /** The tools agents may name; when given, any other entry of `tools:` is a warning. */
    tools?: string[];
  };
  /** Severity per rule id, e.g. `{ 'agent/duplicate-name': 'error', 'section/unused': 'off' }`. */
  rules?: Record<string, RuleLevel>;
  /** Runtimes to emit for: `js` always, `python` for the Python runtime (default both). */
  targets?: Array<'js' | 'python'>;
  /** Build-time constants, used as `{{const.NAME}}` in any section, fragment or agent body. */
  constants?: Record<string, string>;
  /** remark plugins run over each source's tree by `lint`, `check` and `build` (not with `--no-plugins`); their messages are diagnostics, levelled by `rules`. */
  plugins?: PluginConfig[];
}

/** Types a config for editors; returns it unchanged. */
export function defineConfig(config: ProjectConfig): ProjectConfig {
  return config;
}

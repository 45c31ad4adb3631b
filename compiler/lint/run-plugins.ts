/**
 * A project's remark plugins over each source's tree (docs/lint.md#plugins):
 * one unified pipeline — `remarkPromptBuild`, then the plugins in the
 * config's order, as remark would run them — run once per source. Each
 * plugin's transformer is watched: the messages it adds are its own (named
 * by it when they name no source), read from the file after the whole run
 * so that remark-lint's `<!-- lint disable -->` comments, which filter the
 * file's messages at its end, hold; what it throws is one diagnostic
 * naming it, after which the other plugins still run. A file the plugins'
 * syntax throws on is one diagnostic at it. Nothing a plugin
 * changes or makes is written anywhere: the tree is dropped after the run.
 */
import type { Root } from 'mdast';
import { unified, type Processor, type Transformer } from 'unified';
import type { PromptPlugin } from '../core/options.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { describeThrown } from '../config/validate-config.js';
import { remarkPromptBuild } from '../unified/remark-prompt-build.js';
import { messageDiagnostic, type PluginMessage } from './plugin-messages.js';

export interface LintSource {
  /** Root-relative path. */
  rel: string;
  /** The text as the build reads it (BOM removed, CRLF as LF). */
  text: string;
}

type File = Parameters<Transformer<Root>>[1];

/** What went wrong with one plugin: where it first did, and how often. */
interface Failure {
  plugin: PromptPlugin;
  stage: 'attach' | 'run';
  error: unknown;
  /** The first source it threw on (a run failure). */
  file?: LintSource;
  files: number;
}

export async function runPlugins(sources: readonly LintSource[], plugins: readonly PromptPlugin[], extensions: readonly string[]): Promise<Diagnostic[]> {
  const failures = new Map<PromptPlugin, Failure>();
  const diagnostics: Diagnostic[] = [];
  let current: LintSource | null = null;
  const fail = (plugin: PromptPlugin, stage: Failure['stage'], error: unknown): void => {
    const known = failures.get(plugin);
    if (known) known.files++;
    else failures.set(plugin, { plugin, stage, error, files: 1, ...(current ? { file: current } : {}) });
  };
  // Each message credited to the plugin whose transformer added it; read from the file only once the whole run is
  // over, when remark-message-control (remark-lint's `<!-- lint disable -->`) has filtered file.messages.
  const owners = new Map<PluginMessage, PromptPlugin>();
  let ranOn: { messages: readonly PluginMessage[] } | null = null;
  const collect = (plugin: PromptPlugin, file: { messages: readonly PluginMessage[] }, added: readonly PluginMessage[]): void => {
    ranOn = file;
    for (const message of added) owners.set(message, plugin);
  };
  const processor = unified().use(remarkPromptBuild, { extensions }) as unknown as Processor;
  for (const plugin of plugins) processor.use(watched(plugin, fail, collect), ...(plugin.options === undefined ? [] : [plugin.options]));
  processor.freeze();
  for (const source of sources) {
    current = source;
    owners.clear();
    ranOn = null;
    // Each transformer is watched on its own; parsing is not: a plugin's syntax extension runs inside it, unnamed.
    try {
      const tree = processor.parse({ value: source.text, path: source.rel });
      await processor.run(tree, { value: source.text, path: source.rel });
    } catch (error) {
      diagnostics.push(unparsedDiagnostic(source, plugins, error));
      continue;
    }
    for (const message of (ranOn as { messages: readonly PluginMessage[] } | null)?.messages ?? []) {
      const plugin = owners.get(message);
      if (plugin) diagnostics.push(messageDiagnostic(message, source, plugin.name));
    }
  }
  current = null;
  for (const failure of failures.values()) diagnostics.push(failureDiagnostic(failure));
  return diagnostics;
}

/**
 * The plugin's attacher, calling it and then its transformer under watch:
 * the messages the transformer adds are credited to it by `collect`, whatever it throws,
 * returns or rejects with as an error goes to `fail` — except a message it
 * failed with (`file.fail()`), which is a message like the others.
 */
function watched(
  plugin: PromptPlugin,
  fail: (plugin: PromptPlugin, stage: Failure['stage'], error: unknown) => void,
  collect: (plugin: PromptPlugin, file: { messages: readonly PluginMessage[] }, added: readonly PluginMessage[]) => void,
) {
  return function attach(this: Processor, ...options: unknown[]): Transformer<Root> | undefined {
    let transformer: unknown;
    try {
      transformer = (plugin.attacher as (this: Processor, ...options: unknown[]) => unknown).apply(this, options);
    } catch (error) {
      fail(plugin, 'attach', error);
      return undefined;
    }
    if (typeof transformer !== 'function') return undefined;
    const transform = transformer as (tree: Root, file: File, next?: (error?: unknown, tree?: Root) => void) => unknown;
    return async (tree, file) => {
      const before = file.messages.length;
      let out: unknown;
      try {
        out = await new Promise((resolve, reject) => {
          // A transformer that declares `next` answers through it (trough's rule, which unified runs transformers by).
          if (transform.length > 2) transform(tree, file, (error, next) => (error ? reject(error) : resolve(next)));
          else Promise.resolve(transform(tree, file)).then((value) => (value instanceof Error ? reject(value) : resolve(value)), reject);
        });
      } catch (error) {
        if (!file.messages.includes(error as (typeof file.messages)[number])) fail(plugin, 'run', error);
        out = undefined;
      }
      collect(plugin, file, file.messages.slice(before));
      return isTree(out) ? out : undefined;
    };
  };
}

function isTree(value: unknown): value is Root {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** A source the plugins could not be run on at all: reading it with their syntax threw, and none of them says which. */
function unparsedDiagnostic(source: LintSource, plugins: readonly PromptPlugin[], error: unknown): Diagnostic {
  const names = plugins.map((p) => `'${p.name}'`).join(', ');
  return diagnostic('plugin/threw', source.rel, { line: 1, column: 1, excerpt: firstLine(source) }, `reading this file with the plugins' syntax threw (${describeThrown(error)}): no plugin ran on it`, {
    note: `one of the plugins that add Markdown syntax (of ${names}) failed here; the other files were linted`,
  });
}

function firstLine(source: LintSource): string {
  return source.text.slice(0, Math.max(0, source.text.indexOf('\n'))) || source.text;
}

function failureDiagnostic({ plugin, stage, error, file, files }: Failure): Diagnostic {
  const threw = describeThrown(error);
  if (stage === 'attach' || !file) {
    const at = plugin.declaredAt ?? { file: '(config)', line: 1, column: 1 };
    return diagnostic('plugin/threw', at.file, at, `plugin '${plugin.name}' threw when set up (${threw}): it ran on no file`, {
      note: 'check its options; the other plugins ran',
    });
  }
  const others = files > 1 ? `, and on ${files - 1} more file${files > 2 ? 's' : ''}` : '';
  return diagnostic('plugin/threw', file.rel, { line: 1, column: 1, excerpt: firstLine(file) }, `plugin '${plugin.name}' threw on this file (${threw})${others}`, {
    note: 'its findings on those files are missing; the other plugins ran. A plugin reports a problem with file.message(), not by throwing',
  });
}

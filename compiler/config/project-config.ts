/**
 * A project's config file read into build options, as every command reads
 * it: the file found (or the one named), checked, mapped to options, and —
 * when asked — its plugins loaded. Problems come back as diagnostics; what
 * to do with them is the caller's (the CLI stops, the language server
 * shows them on the file).
 */
import path from 'node:path';
import type { BuildOptions } from '../core/options.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { configBuildOptions } from './config-options.js';
import { loadConfig } from './load-config.js';

export interface ProjectConfigRead {
  options: Partial<BuildOptions>;
  diagnostics: Diagnostic[];
  /** The config file (absolute) and its text as read; null without one. */
  source: { file: string; text: string } | null;
}

/** `explicit`: a config file named on the command line; `plugins`: load the config's plugins (they run only when loaded). */
export async function readProjectConfig(root: string, { explicit, plugins = false }: { explicit?: string; plugins?: boolean } = {}): Promise<ProjectConfigRead> {
  const loaded = await loadConfig(root, explicit);
  const { options, diagnostics } = configBuildOptions(root, loaded);
  const all = [...loaded.diagnostics, ...diagnostics];
  if (plugins && all.length === 0 && loaded.file !== null && (loaded.config.plugins?.length ?? 0) > 0) {
    const { loadPlugins } = await import('./load-plugins.js');
    const rel = path.relative(root, loaded.file);
    const file = rel.startsWith('..') || path.isAbsolute(rel) ? loaded.file : rel.split(path.sep).join('/');
    const found = await loadPlugins(root, loaded.config.plugins!, { file, text: loaded.text });
    options.plugins = found.plugins;
    for (const d of found.diagnostics) all.push(d);
  }
  return { options, diagnostics: all, source: loaded.file === null ? null : { file: loaded.file, text: loaded.text } };
}

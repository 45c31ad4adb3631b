/**
 * `prompt-build watch`: rebuild on change and say what changed. Status lines
 * go to stderr like `build`'s; diagnostics go through the chosen reporter.
 * Runs until SIGINT or SIGTERM, then closes the watcher and exits 0.
 */
import path from 'node:path';
import { LockTimeoutError } from '../../write/lock.js';
import { OutputWriteError } from '../../write/write-bundle.js';
import type { Diagnostic } from '../../diagnostics/diagnostics.js';
import { formatRebuildLine } from '../../watch/rebuild-line.js';
import { startWatch, type WatchEvent, type WatchSession } from '../../watch/session.js';
import type { CommonOptions } from '../args.js';
import type { Io } from '../io.js';
import { UsageError } from '../usage-error.js';
import { ConfigError, plural, report, toBuildOptions } from '../shared.js';
import { terminalSafe } from '../../diagnostics/terminal-safe.js';
import { clock, triggerLine } from '../watch-lines.js';
import { resolveBuildOptions } from '../../core/options.js';
import type { BuildResult } from '../../pipeline/compiler.js';
import { LiveReport } from '../serve/live-report.js';
import { startPreviewServer } from '../serve/preview-server.js';

export async function runWatch(options: CommonOptions, serve: { port: number } | null, io: Io): Promise<number> {
  const buildOptions = await toBuildOptions(options);
  /** A status line, after the time. */
  const status = (line: string) => io.err(`${clock(new Date())} ${line}`);
  const out = path.relative(process.cwd(), buildOptions.outDir!) || '.';
  let lost: (() => void) | undefined;
  const rootLost = new Promise<'root-gone'>((resolve) => (lost = () => resolve('root-gone')));
  const root = buildOptions.root;
  const printEvent = printer(options, io, status, root, out, () => lost!());
  const preview = serve ? await startPreview(serve.port, out, resolveBuildOptions(buildOptions).models, status) : null;
  let session: WatchSession | undefined;
  /** Config reloads, one after another. */
  let reloads: Promise<void> = Promise.resolve();
  const print = (event: WatchEvent): void => {
    if (event.type === 'config-changed') {
      reloads = reloads.then(() => reload(event.file));
      return;
    }
    printEvent(event);
    if (preview && event.type === 'build') preview.built(event.result);
  };
  /** A new session on the reloaded config; a config with errors leaves the running one as it is. */
  const reload = async (file: string): Promise<void> => {
    const name = terminalSafe(path.relative(process.cwd(), file) || file);
    let next: Awaited<ReturnType<typeof toBuildOptions>>;
    try {
      next = await toBuildOptions(options);
    } catch (error) {
      if (error instanceof ConfigError) report(io, options, false, error.diagnostics);
      else status(`✖ ${terminalSafe((error as Error).message)}`);
      status(`✖ ${name} changed and cannot be used: still building with the config loaded before`);
      return;
    }
    if (path.resolve(next.outDir!) !== path.resolve(buildOptions.outDir!)) {
      status(`✖ ${name} changed the out directory: restart watch to build into ${path.relative(process.cwd(), next.outDir!) || '.'}`);
      return;
    }
    status(`${name} changed: reloading the config and building again`);
    await session?.close();
    session = await startWatch(next, print);
  };
  const stopped = new Promise<'signal'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
  });
  session = await startWatch(buildOptions, print);
  const why = await Promise.race([stopped, rootLost]);
  await reloads.catch(() => {});
  await session.close();
  await preview?.close();
  if (why === 'root-gone') return 1;
  status('watch stopped');
  return 0;
}

/** What each watch event prints. Warnings repeat on every build, so they are shown only when they change. */
function printer(options: CommonOptions, io: Io, status: (line: string) => void, root: string, out: string, onRootGone: () => void): (event: WatchEvent) => void {
  let shownWarnings = '';
  return (event) => {
    switch (event.type) {
      case 'ready':
        status(`watching ${path.relative(process.cwd(), event.root) || '.'} for changes · Ctrl-C to stop`);
        return;
      case 'root-gone':
        status(`✖ ${path.relative(process.cwd(), event.root) || '.'} is gone (deleted, moved, or without prompts/ and agents/); ${out}/ keeps the last good build; watch stopped`);
        onRootGone();
        return;
      case 'failure':
        // The file system's refusal or another build's lock is a one-line message; anything else is a bug in prompt-build.
        if (event.error instanceof OutputWriteError || event.error instanceof LockTimeoutError) status(`✖ ${event.error.message}; ${out}/ keeps the last good build`);
        else io.err(`prompt-build: internal error: ${(event.error as Error)?.stack ?? String(event.error)}`);
        status('still watching; the next change rebuilds from scratch');
        return;
      case 'build': {
        const { result, ms } = event;
        const human = options.reporter === 'human' || options.reporter === 'github';
        const trigger = triggerLine(event.changes, root);
        if (human && trigger) status(trigger);
        const warnings = keyOf(result.diagnostics);
        const extra = { event: event.first ? 'build' : 'rebuild', ms: Math.round(ms), ...(event.diff ? { diff: event.diff } : {}) };
        if (!result.ok || warnings !== shownWarnings || options.reporter === 'json') report(io, options, result.ok, result.diagnostics, extra);
        if (result.ok) shownWarnings = warnings;
        if (human) status(statusLine(event, out));
      }
    }
  };
}

function statusLine({ first, result, diff, ms }: Extract<WatchEvent, { type: 'build' }>, out: string): string {
  if (!result.bundle) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    return `✖ ${first ? 'build' : 'rebuild'} failed in ${Math.round(ms)} ms with ${plural(errors, 'error')}; ${out}/ keeps the last good build`;
  }
  if (first || !diff) {
    const m = result.bundle.manifest;
    return `built ${plural(Object.keys(m.profiles).length, 'profile')}, ${plural(Object.keys(m.agents).length, 'agent')} into ${out}/ in ${Math.round(ms)} ms`;
  }
  return formatRebuildLine(diff, ms);
}

function keyOf(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column}:${d.rule}:${d.message}`).join('\n');
}

/** The report served while watching: updated after every build, open pages told to reload. */
async function startPreview(port: number, label: string, models: readonly string[], status: (line: string) => void) {
  const live = new LiveReport(label, models);
  let server;
  try {
    server = await startPreviewServer(port, () => live.html());
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new UsageError(`--port ${port}: ${code === 'EADDRINUSE' ? 'already in use' : 'not allowed'} on 127.0.0.1; choose another with --port`);
    throw error;
  }
  status(`serving the report on ${server.url}`);
  return {
    built(result: BuildResult) {
      live.built(result);
      server.changed();
    },
    close: () => server.close(),
  };
}

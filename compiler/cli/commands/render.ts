import fs from 'node:fs/promises';
import path from 'node:path';
import type { PrefixEconomics } from '../../cache-facts/cache-economics.js';
import { colors, formatHuman } from '../../diagnostics/format.js';
import { terminalSafe, terminalSafeJson, terminalSafeLines } from '../../diagnostics/terminal-safe.js';
import { BundleError } from '../../runtime/bundle.js';
import { MissingVariableError, RenderError } from '../../runtime/render-error.js';
import { SYSTEM_PROMPT_DYNAMIC_BOUNDARY } from '../../runtime/system-prompt.js';
import type { CommonOptions, RenderOptions } from '../args.js';
import { assemblePrompt, CONTEXT_PARTS, SelectionError, type AssembledPrompt, type ContextPart } from '../assemble-prompt.js';
import type { Io } from '../io.js';
import { cacheSettings, readArgumentFile } from '../shared.js';
import { headingMarkers, markText } from '../stripped-markers.js';
import { UsageError } from '../usage-error.js';

export async function runRender(options: CommonOptions, render: RenderOptions, io: Io): Promise<number> {
  const root = path.resolve(options.root);
  const { outDir, ...settings } = await cacheSettings(options);
  const bundleDir = render.bundle === undefined ? outDir : path.resolve(root, render.bundle);
  try {
    await fs.access(path.join(bundleDir, 'manifest.json'));
  } catch {
    throw new UsageError(`no bundle at ${bundleDir} (run \`prompt-build build\` first, or pass --bundle)`);
  }
  let assembled: AssembledPrompt;
  try {
    assembled = await assemblePrompt({
      bundleDir,
      profile: render.profile,
      agent: render.agent,
      coordinator: render.coordinator,
      proactive: render.proactive,
      simple: render.simple,
      customSystemPrompt: render.customSystemPrompt,
      appendSystemPrompt: render.appendSystemPrompt,
      overrideSystemPrompt: render.overrideSystemPrompt,
      context: await readContext(render.context),
      contextParts: contextParts(render.contextParts),
      cwd: path.resolve(render.cwd ?? process.cwd()),
      showStripped: render.showStripped,
      ...settings,
    });
  } catch (error) {
    // A wrong name or a broken bundle is the user's to fix: one line, no stack.
    if (error instanceof SelectionError || error instanceof BundleError) throw new UsageError(error.message);
    // A section that cannot render with this context: the context is the user's to fix, so one line, exit 1.
    if (error instanceof MissingVariableError) {
      io.err(`${terminalSafe(error.message)}\n(pass a value with --context FILE.json)`);
      return 1;
    }
    if (error instanceof RenderError) {
      io.err(terminalSafe(error.message));
      return 1;
    }
    throw error;
  }
  for (const warning of assembled.warnings) io.err(formatHuman(warning, { color: options.color }));
  io.out(render.json ? toJson(assembled) : toHuman(assembled, options.color, render.raw));
  return 0;
}

/** `--context-parts git,date` → the parts; `none` → none; absent → all. */
function contextParts(written: string | undefined): ReadonlySet<ContextPart> {
  if (written === undefined) return new Set(CONTEXT_PARTS);
  const names = written.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 1 && names[0] === 'none') return new Set();
  const unknown = names.filter((name) => !(CONTEXT_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(`--context-parts ${terminalSafe(written)}: give a comma-separated list of ${CONTEXT_PARTS.join(', ')}, or none`);
  }
  return new Set(names as ContextPart[]);
}

async function readContext(file: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (file === undefined) return undefined;
  let parsed: unknown;
  try {
    // As a regular file only: a FIFO would block the command.
    parsed = JSON.parse(readArgumentFile(file));
  } catch (error) {
    throw new UsageError(`--context ${file}: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UsageError(`--context ${file}: must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

function toJson(a: AssembledPrompt): string {
  const json = { system: a.system, blocks: a.blocks, userContext: a.userContext, systemContext: a.systemContext, contextParts: a.contextParts, cache: a.cache };
  return terminalSafeJson(a.stripped ? { ...json, stripped: strippedJson(a) } : json);
}

/** `--show-stripped --json`: one entry per part that lost comments, by its index in `system`. */
function strippedJson(a: AssembledPrompt) {
  return (a.stripped ?? []).flatMap((stripped, part) => (stripped === null ? [] : [{ part, label: a.labels[part]!, ...stripped }]));
}

function cacheNote(e: PrefixEconomics): string {
  if (e.verdict === null) return ` · ${e.model}: no cache facts`;
  if (e.verdict === 'not-cached') return ` · ${e.model}: not cached (below ${e.minimumTokens})`;
  if (e.verdict === 'may-not-be-cached') return ` · ${e.model}: may not be cached (the estimate is near ${e.minimumTokens})`;
  return ` · ${e.model}: cached, ~${e.warm} warm / ~${e.cold} cold (uncached ~${e.uncached})`;
}

/**
 * The prompt for a reader: every text from the bundle, the context or the
 * flags goes through `show` — by default each line made visible as
 * diagnostics are (`\e`, `\r`, `\u{202e}`), so no text can move the cursor,
 * erase a line or reorder what is shown; `--raw` prints it exactly.
 */
const CONTEXT_PART_NAMES: Readonly<Record<ContextPart, string>> = { git: 'git snapshot', instructions: 'instruction files', date: "today's date" };

function toHuman(a: AssembledPrompt, color: boolean, raw: boolean): string {
  const show = raw ? (s: string) => s : terminalSafeLines;
  const name = raw ? (s: string) => s : terminalSafe;
  const c = color ? colors() : { bold: (s: string) => s, dim: (s: string) => s, yellow: (s: string) => s, cyan: (s: string) => s };
  const out: string[] = [c.bold('━━ system prompt ━━')];
  a.system.forEach((part, i) => {
    const label = a.labels[i]!;
    if (label === 'boundary') {
      const size = a.staticTokens === null ? '' : ` — static prefix above: ~${a.staticTokens} tokens${a.cache.map(cacheNote).join('')}`;
      out.push(c.yellow(`════ dynamic boundary${size} ════`));
      return;
    }
    const stripped = a.stripped?.[i] ?? null;
    if (stripped === null) out.push(c.cyan(`── ${name(label)} ──`), show(part));
    else out.push(c.cyan(`── ${name(label)} ──`), ...headingMarkers(stripped, c.dim), stripped.in === 'text' ? markText(part, stripped.at, c.dim, show) : show(part));
  });
  out.push('', c.bold('━━ user context (first user message) ━━'));
  out.push(c.dim(`run-time context added: ${a.contextParts.length === 0 ? 'none' : a.contextParts.map((p) => CONTEXT_PART_NAMES[p]).join(', ')} (choose with --context-parts)`));
  for (const [key, value] of Object.entries(a.userContext)) out.push(c.cyan(`── ${name(key)} ──`), show(value));
  out.push('', c.bold('━━ provider blocks ━━'));
  a.blocks.forEach((b, i) => {
    // Only a prompt with a boundary has a static block, and it comes first.
    const side = i === 0 && a.system.indexOf(SYSTEM_PROMPT_DYNAMIC_BOUNDARY) > 0 ? 'static prefix, the same for every user' : 'session';
    const cache = b.cache_control ? `cache breakpoint (${side})` : 'no breakpoint';
    out.push(c.dim(`block ${i + 1}: ${Buffer.byteLength(b.text)} bytes, ${cache}`));
  });
  return out.join('\n');
}

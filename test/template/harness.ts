import Handlebars from 'handlebars';
import { vi } from 'vitest';
import { createThunkRuntime, importHandlebarsRuntime } from '../../compiler/runtime/thunk-runtime.js';
import type { ThunkFactory } from '../../compiler/runtime/manifest.js';
import { fallbackReason, generateThunkModule, type ThunkOptions } from '../../compiler/template/index.js';

export type Render = (ctx: Record<string, unknown>) => string;

/** For the thunks Handlebars compiles (the code generator's own never use it), as `loadBundle` gives it to a bundle that has one. */
export const HANDLEBARS_RUNTIME = await importHandlebarsRuntime();

/**
 * Loads a thunk module's text the way the single-file bundle inlines it: the
 * module body as a function body (it imports nothing and exports one default).
 */
export function instantiate(moduleText: string): Render {
  if (!moduleText.startsWith('export default function create(rt) {')) throw new Error('not a thunk module');
  const create = new Function(moduleText.replace(/^export default /, 'return '))() as ThunkFactory;
  return create(createThunkRuntime(HANDLEBARS_RUNTIME));
}

export function compileThunk(source: string, options: Partial<ThunkOptions> = {}): Render {
  return instantiate(generateThunkModule(source, { section: 'test', inputs: [], optional: [], ...options }));
}

export function usesFastPath(source: string): boolean {
  return fallbackReason(source) === null;
}

/** What Handlebars renders, or the fact that it throws. */
export function handlebarsOutcome(source: string, ctx: Record<string, unknown>): { output: string } | { throws: true } {
  try {
    return { output: Handlebars.compile(source, { noEscape: true })(ctx) };
  } catch {
    return { throws: true };
  }
}

export function thunkOutcome(render: Render, ctx: Record<string, unknown>): { output: string } | { throws: true } {
  try {
    return { output: render(ctx) };
  } catch {
    return { throws: true };
  }
}

/** Handlebars' `{{log}}` (and its note on a denied prototype property) write to the console: kept out of the test output until `restore`. */
export function quietConsole(): { restore(): void } {
  const spies = (['debug', 'info', 'warn', 'error', 'log'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => {}));
  return { restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

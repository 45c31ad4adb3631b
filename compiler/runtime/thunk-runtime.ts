/**
 * What a dynamic section's thunk receives as `rt` (see `ThunkRuntime` in
 * manifest.ts). Runtime side: it may import only `handlebars/runtime` and the
 * manifest contract — and that only for a bundle with a thunk compiled by
 * Handlebars (`needsHandlebars`): importing it costs a process 15–20 ms,
 * and the code generator's own thunks never touch it.
 */
import type { ThunkRuntime } from './manifest.js';
import { printable } from './printable.js';
import { MissingVariableError, renderFailed } from './render-error.js';

export { MissingVariableError, RenderError } from './render-error.js';

/** The part of `handlebars/runtime` the thunks use (its bundled typings declare none of it). */
export interface HandlebarsRuntimeEnvironment {
  create(): HandlebarsRuntimeEnvironment;
  template(spec: unknown): (context: unknown) => string;
}

/** What a thunk compiled by Handlebars calls (codegen.ts writes `rt.handlebars.template(…)`), found in its source. */
export function needsHandlebars(thunkSource: string | Buffer): boolean {
  return thunkSource.includes('rt.handlebars');
}

export async function importHandlebarsRuntime(): Promise<HandlebarsRuntimeEnvironment> {
  // handlebars has no "exports" map, so Node's ESM resolver needs the `.js` spelling.
  const module = (await import('handlebars/runtime.js')) as { default: unknown };
  return module.default as HandlebarsRuntimeEnvironment;
}

/** Stands in when no thunk of the bundle needed Handlebars: a factory that reaches for it anyway is told how to give it one. */
const NO_HANDLEBARS: HandlebarsRuntimeEnvironment = {
  create: () => NO_HANDLEBARS,
  template: () => {
    throw new Error('this thunk was compiled by Handlebars and needs its runtime: pass `handlebars` (`(await import("handlebars/runtime.js")).default`) to loadBundleModule');
  },
};

/**
 * A runtime for one loaded bundle. Its Handlebars environment is private to it
 * (built-in helpers only, like the fast-path thunks assume), so helpers or
 * partials another part of the process registers globally cannot change a
 * prompt. The build refuses templates that call other helpers; a host that
 * generates thunks itself (`generateThunkModule`) and wants custom helpers
 * registers them on `rt.handlebars` — of a runtime made with `handlebars`
 * (`importHandlebarsRuntime()`), which only thunks compiled by Handlebars need.
 */
export function createThunkRuntime(handlebars: HandlebarsRuntimeEnvironment | null = null): ThunkRuntime {
  return {
    handlebars: (handlebars ?? NO_HANDLEBARS).create(),
    missing(section: string, variable: string): never {
      throw new MissingVariableError(section, variable);
    },
    text: printable,
    failed: renderFailed,
    str,
  };
}

/**
 * How a Handlebars template compiled with `noEscape` prints a value: nothing
 * for null and undefined, otherwise JavaScript string conversion (no escaping,
 * and no `toHTML`, which only the escaping path calls).
 */
function str(value: unknown): string {
  return value == null ? '' : '' + (value as string);
}

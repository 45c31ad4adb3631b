/**
 * What a dynamic section's thunk receives as `rt` (see `ThunkRuntime` in
 * manifest.ts). Runtime side: it may import only `handlebars/runtime` and the
 * manifest contract.
 */
// handlebars has no "exports" map, so Node's ESM resolver needs the `.js` spelling.
import HandlebarsRuntime from 'handlebars/runtime.js';
import type { ThunkRuntime } from './manifest.js';
import { printable } from './printable.js';
import { MissingVariableError, renderFailed } from './render-error.js';

export { MissingVariableError, RenderError } from './render-error.js';

/** The part of `handlebars/runtime` the thunks use (its bundled typings declare none of it). */
interface HandlebarsRuntimeEnvironment {
  create(): HandlebarsRuntimeEnvironment;
  template(spec: unknown): (context: unknown) => string;
}

/**
 * A runtime for one loaded bundle. Its Handlebars environment is private to it
 * (built-in helpers only, like the fast-path thunks assume), so helpers or
 * partials another part of the process registers globally cannot change a
 * prompt. The build refuses templates that call other helpers; a host that
 * generates thunks itself (`generateThunkModule`) and wants custom helpers
 * registers them on `rt.handlebars`.
 */
export function createThunkRuntime(): ThunkRuntime {
  return {
    handlebars: (HandlebarsRuntime as unknown as HandlebarsRuntimeEnvironment).create(),
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

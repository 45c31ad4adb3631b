/**
 * Argument checks for the public functions of `prompt-build/runtime`. A
 * caller's mistake — an un-awaited prompt, a missing cache, a TTL the
 * providers do not take — is refused here, before it can surface as an
 * internal TypeError deep inside, or worse, reach a provider's API. Every
 * refusal is one class, naming the function, the parameter and what it got;
 * the Python runtime refuses the same inputs (`errors.py`, the `refusals`
 * conformance vectors).
 */

export class ArgumentError extends TypeError {
  override name = 'ArgumentError';

  constructor(
    /** The public function refusing, e.g. `toAnthropicSystem`. */
    readonly functionName: string,
    /** The parameter, as a path into the arguments: `options.ttl`, `prompt[2]`. */
    readonly parameter: string,
    expected: string,
    got: unknown,
  ) {
    super(`${functionName}: ${parameter} must be ${expected}; got ${describe(got)}${isThenable(got) ? ' (did you forget `await`?)' : ''}`);
  }
}

/** What a value is, in a few words, without printing it (it may be large, or a secret). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (isThenable(value)) return 'a Promise';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return value.length <= 20 ? JSON.stringify(value) : `a string of ${value.length} characters`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      return value instanceof Map ? 'a Map' : 'an object';
  }
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A plain record (an object literal, not an array, a Map or a Promise). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isThenable(value) && !(value instanceof Map);
}

/** `options` when it is a record or absent (as `{}`); refused otherwise. */
export function optionsOf<T extends object>(fn: string, options: T | undefined, parameter = 'options'): Partial<T> {
  if (options === undefined) return {};
  if (!isRecord(options)) throw new ArgumentError(fn, parameter, 'an object', options);
  return options;
}

/** Checks a prompt: an array of strings (a `SystemPrompt`, or the parts one is made of). */
export function checkPrompt(fn: string, prompt: unknown, parameter = 'prompt'): void {
  if (!Array.isArray(prompt)) throw new ArgumentError(fn, parameter, 'a SystemPrompt (an array of strings)', prompt);
  for (let index = 0; index < prompt.length; index++) {
    if (typeof prompt[index] !== 'string') throw new ArgumentError(fn, `${parameter}[${index}]`, 'a string', prompt[index]);
  }
}

export function checkString(fn: string, parameter: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new ArgumentError(fn, parameter, 'a string', value);
}

export function checkOptionalString(fn: string, parameter: string, value: unknown): asserts value is string | undefined {
  if (value !== undefined) checkString(fn, parameter, value);
}

export function checkOptionalBoolean(fn: string, parameter: string, value: unknown): asserts value is boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw new ArgumentError(fn, parameter, 'true or false', value);
}

export function checkOneOf<T extends string>(fn: string, parameter: string, value: unknown, allowed: readonly T[]): asserts value is T | undefined {
  if (value !== undefined && !allowed.includes(value as T)) {
    throw new ArgumentError(fn, parameter, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
}

export function checkFunction(fn: string, parameter: string, value: unknown): void {
  if (typeof value !== 'function') throw new ArgumentError(fn, parameter, 'a function', value);
}

/** A prompt given as one string, as parts, or absent (the priority chain's inputs). */
export function checkPromptInput(fn: string, parameter: string, value: unknown): void {
  if (value === null || value === undefined || typeof value === 'string') return;
  if (!Array.isArray(value)) throw new ArgumentError(fn, parameter, 'a string, an array of strings, null or undefined', value);
  checkPrompt(fn, value, parameter);
}

/** A bundle as `loadBundle` or `loadBundleModule` gives it. */
export function checkBundle(fn: string, parameter: string, value: unknown, expected = 'a bundle from loadBundle or loadBundleModule'): void {
  const bundle = value as { profiles?: unknown; agents?: unknown } | null;
  if (!isThenable(value) && typeof value === 'object' && value !== null && bundle!.profiles instanceof Map && bundle!.agents instanceof Map) return;
  throw new ArgumentError(fn, parameter, expected, value);
}

/** Key-value context entries: a record whose values are strings (null and undefined are left out). */
export function checkEntries(fn: string, parameter: string, value: unknown): void {
  if (!isRecord(value)) throw new ArgumentError(fn, parameter, 'an object of strings', value);
  for (const key of Object.keys(value)) {
    const entry = value[key];
    if (entry !== null && entry !== undefined && typeof entry !== 'string') throw new ArgumentError(fn, `${parameter}.${key}`, 'a string', entry);
  }
}

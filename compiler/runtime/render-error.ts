/**
 * What a dynamic section throws when it cannot render: always a RenderError
 * naming the section (and, where one is to blame, the variable), so a caller
 * can tell a bad context from a bug and print one line instead of a stack.
 */

export class RenderError extends Error {
  override name = 'RenderError';

  constructor(
    readonly section: string,
    /** The template expression whose value failed (`cwd`, `this.name`…); undefined when no single one is to blame. */
    readonly variable: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A required context variable was undefined when its section rendered. */
export class MissingVariableError extends RenderError {
  override name = 'MissingVariableError';
  declare readonly variable: string;

  constructor(section: string, variable: string) {
    super(section, variable, `dynamic section "${section}" needs the context variable "${variable}", which is missing`);
  }
}

/** A value the template prints has no text form (a symbol, an object whose conversion fails). */
export function unprintable(section: string, variable: string, why: string, cause?: unknown): RenderError {
  const message = `dynamic section "${section}": the value of "${variable}" cannot become text (${why})`;
  return new RenderError(section, variable, message, cause === undefined ? undefined : { cause });
}

/** Anything else that went wrong while rendering (a throwing getter or lambda…), with the original as `cause`. */
export function renderFailed(section: string, error: unknown): RenderError {
  if (error instanceof RenderError) return error;
  return new RenderError(section, undefined, `dynamic section "${section}" failed to render: ${describeError(error)}`, { cause: error });
}

/** One line about a thrown value, whatever it is (a thrown value can be as hostile as a printed one). */
export function describeError(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'a value that cannot be printed';
  }
  return text.split('\n', 1)[0] ?? text;
}

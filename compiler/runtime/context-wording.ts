/**
 * The words wrapped around run-time context data — the git snapshot's
 * preamble, the instruction files' preamble, the date line, the user-context
 * message — are prompt text like any other: sections of the bundle's
 * `context` profile (the embedded set's `prompts/sections/context/`), each
 * rendered on its own from the data the providers gather. This module only
 * finds and renders them; it holds no wording.
 */
import { ArgumentError, checkBundle, isRecord } from './arguments.js';
import { BundleError, type Bundle, type RenderSection } from './bundle.js';

/** The profile whose sections are the context wording; never a system prompt of its own. */
export const CONTEXT_PROFILE = 'context';

/** The wording texts, by section name, and what each renders. */
export const CONTEXT_TEXTS = ['git-snapshot', 'instructions', 'current-date', 'user-context'] as const;
export type ContextText = (typeof CONTEXT_TEXTS)[number];

/** Whether `bundle` carries every wording text (a project's own prompt set may leave them to the embedded one). */
export function hasContextWording(bundle: Bundle): boolean {
  checkBundle('hasContextWording', 'bundle', bundle);
  const profile = bundle.profiles.get(CONTEXT_PROFILE);
  return profile !== undefined && CONTEXT_TEXTS.every((name) => profile.dynamicSections.some((s) => s.name === name));
}

/**
 * `text` rendered from `values`, exactly as the template gives it: no newline
 * trimmed (a text that must not end with a line end says so with `~}}`).
 */
export function renderContextText(bundle: Bundle, text: ContextText, values: Record<string, unknown>): string {
  checkBundle('renderContextText', 'bundle', bundle);
  if (!CONTEXT_TEXTS.includes(text)) throw new ArgumentError('renderContextText', 'text', `one of ${CONTEXT_TEXTS.join(', ')}`, text);
  if (!isRecord(values)) throw new ArgumentError('renderContextText', 'values', 'an object of the values the text reads', values);
  return renderer(bundle, text)(values) ?? '';
}

function renderer(bundle: Bundle, text: ContextText): RenderSection {
  const section = bundle.profiles.get(CONTEXT_PROFILE)?.dynamicSections.find((s) => s.name === text);
  if (!section) {
    throw new BundleError(
      `the bundle has no context wording '${text}': a profile '${CONTEXT_PROFILE}' with a dynamic section '${text}' ` +
        `(copy prompts/sections/context/ and prompts/profiles/context.md from prompt-build's embedded set), or pass the embedded bundle`,
    );
  }
  return section.render;
}

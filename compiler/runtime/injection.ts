/**
 * Where the run-time contexts go (docs/context.md#where-the-parts-go): the system context (git
 * snapshot…) after the system prompt, in the dynamic tail; the user context
 * (instruction files, date) as a first user message, so that it never
 * touches the cached system prompt at all. The message's wording is the
 * bundle's `user-context` text (context-wording.ts).
 */
import { ArgumentError, checkBundle, checkEntries } from './arguments.js';
import type { Bundle } from './bundle.js';
import { renderContextText } from './context-wording.js';
import { asSystemPrompt, checkSystemPrompt, type SystemPrompt } from './system-prompt.js';
import { hasText } from './text.js';

export type ContextEntries = Readonly<Record<string, string>>;

/** The system context as one last part of `key: value` lines; blank values are left out. */
export function appendSystemContext(systemPrompt: SystemPrompt, systemContext: ContextEntries): SystemPrompt {
  checkSystemPrompt('appendSystemContext', systemPrompt, 'systemPrompt');
  checkEntries('appendSystemContext', 'systemContext', systemContext);
  const entries = filledEntries(systemContext);
  if (entries.length === 0) return systemPrompt;
  return asSystemPrompt([...systemPrompt, entries.map(([key, value]) => `${key}: ${value}`).join('\n')], { derivedFrom: [systemPrompt] });
}

export interface UserContextMessage {
  role: 'user';
  content: string;
}

/**
 * A new array: the user context as a first user message, then `messages`
 * (unchanged when the context is empty). `wording`: the bundle whose
 * `context` profile words the message — the one `fetchSystemPromptParts`
 * used is `parts.wording`.
 */
export function prependUserContext<M>(
  messages: readonly M[],
  userContext: ContextEntries,
  wording: Bundle,
): (M | UserContextMessage)[] {
  if (!Array.isArray(messages)) throw new ArgumentError('prependUserContext', 'messages', 'an array of messages', messages);
  checkEntries('prependUserContext', 'userContext', userContext);
  // Checked even when the context is empty, so a call missing it fails on the first test, not in production.
  checkBundle('prependUserContext', 'wording', wording, 'the bundle whose context profile words the message (parts.wording)');
  const entries = filledEntries(userContext);
  if (entries.length === 0) return [...messages];
  const content = renderContextText(wording, 'user-context', { entries: entries.map(([key, value]) => ({ key, value })) });
  return [{ role: 'user', content }, ...messages];
}

function filledEntries(context: ContextEntries): [string, string][] {
  return Object.entries(context).filter(([, value]) => hasText(value));
}

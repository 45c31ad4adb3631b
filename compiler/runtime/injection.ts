/**
 * Where the run-time contexts go (SPEC §6.6): the system context (git
 * snapshot…) after the system prompt, in the dynamic tail; the user context
 * (instruction files, date) as a first user message, so that it never
 * touches the cached system prompt at all.
 */
import { asSystemPrompt, type SystemPrompt } from './system-prompt.js';
import { hasText } from './text.js';

export type ContextEntries = Readonly<Record<string, string>>;

/** The system context as one last part of `key: value` lines; blank values are left out. */
export function appendSystemContext(systemPrompt: SystemPrompt, systemContext: ContextEntries): SystemPrompt {
  const entries = filledEntries(systemContext);
  if (entries.length === 0) return systemPrompt;
  return asSystemPrompt([...systemPrompt, entries.map(([key, value]) => `${key}: ${value}`).join('\n')], { derivedFrom: [systemPrompt] });
}

export interface UserContextMessage {
  role: 'user';
  content: string;
}

/** A new array: the user context as a first user message, then `messages` (unchanged when the context is empty). */
export function prependUserContext<M>(
  messages: readonly M[],
  userContext: ContextEntries,
): (M | UserContextMessage)[] {
  const entries = filledEntries(userContext);
  if (entries.length === 0) return [...messages];
  return [{ role: 'user', content: userContextReminder(entries) }, ...messages];
}

function userContextReminder(entries: readonly (readonly [string, string])[]): string {
  const body = entries.map(([key, value]) => `# ${key}\n${value}`).join('\n');
  return (
    `<system-reminder>\n` +
    `As you answer the user's questions, you can use the following context:\n` +
    `${body}\n\n` +
    `IMPORTANT: this context may or may not be relevant to your tasks. ` +
    `You should not respond to this context unless it is highly relevant to your task.\n` +
    `</system-reminder>\n`
  );
}

function filledEntries(context: ContextEntries): [string, string][] {
  return Object.entries(context).filter(([, value]) => hasText(value));
}

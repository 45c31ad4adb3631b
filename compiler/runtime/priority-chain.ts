/**
 * Which system prompt a request actually uses (docs/runtime.md#the-priority-chain). First match wins:
 * override → coordinator → agent → custom → default; `append` is added last
 * in every case but override, which replaces everything.
 */
import { ArgumentError, checkOptionalBoolean, checkPromptInput, isRecord } from './arguments.js';
import { asSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from './system-prompt.js';
import { hasText } from './text.js';

/** A prompt given as one string or as parts; null, empty and blank parts count as absent. */
export type PromptInput = string | readonly string[] | null | undefined;

export interface EffectiveSystemPromptInput {
  overrideSystemPrompt?: PromptInput;
  coordinatorSystemPrompt?: PromptInput;
  agentSystemPrompt?: PromptInput;
  customSystemPrompt?: PromptInput;
  defaultSystemPrompt: PromptInput;
  appendSystemPrompt?: PromptInput;
  /** Proactive mode keeps the default prompt and adds the agent's under a heading. */
  proactive?: boolean;
}

export const CUSTOM_AGENT_INSTRUCTIONS_HEADING = '# Custom Agent Instructions';

const PROMPT_INPUTS = [
  'overrideSystemPrompt',
  'coordinatorSystemPrompt',
  'agentSystemPrompt',
  'customSystemPrompt',
  'defaultSystemPrompt',
  'appendSystemPrompt',
] as const;

export function buildEffectiveSystemPrompt(input: EffectiveSystemPromptInput): SystemPrompt {
  const fn = 'buildEffectiveSystemPrompt';
  if (!isRecord(input)) throw new ArgumentError(fn, 'input', 'an object', input);
  for (const key of PROMPT_INPUTS) checkPromptInput(fn, `input.${key}`, input[key]);
  checkOptionalBoolean(fn, 'input.proactive', input.proactive);
  const override = partsOf(input.overrideSystemPrompt);
  if (override.length > 0) return asSystemPrompt(override, { derivedFrom: [input.overrideSystemPrompt] });
  // The prompt in front keeps its static prefix's identity (for provider cache keys) when its prefix is unchanged.
  const sources = [input.coordinatorSystemPrompt, input.agentSystemPrompt, input.customSystemPrompt, input.defaultSystemPrompt];
  return asSystemPrompt([...basePrompt(input), ...partsOf(input.appendSystemPrompt)], { derivedFrom: sources });
}

function basePrompt(input: EffectiveSystemPromptInput): string[] {
  const agent = partsOf(input.agentSystemPrompt);
  const coordinator = partsOf(input.coordinatorSystemPrompt);
  if (coordinator.length > 0) return [...coordinator, ...agent];
  if (agent.length > 0) {
    if (!input.proactive) return agent;
    // One part under the heading: an agent prompt's own boundary (getAgentSystemPrompt) must not end up inside its text.
    const text = agent.filter((part) => part !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY).join('\n\n');
    return [...partsOf(input.defaultSystemPrompt), `${CUSTOM_AGENT_INSTRUCTIONS_HEADING}\n${text}`];
  }
  const custom = partsOf(input.customSystemPrompt);
  return custom.length > 0 ? custom : partsOf(input.defaultSystemPrompt);
}

function partsOf(prompt: PromptInput): string[] {
  if (prompt === null || prompt === undefined) return [];
  return (typeof prompt === 'string' ? [prompt] : [...prompt]).filter(hasText);
}

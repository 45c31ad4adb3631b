/**
 * Assembles one profile of a bundle into a SystemPrompt (docs/runtime.md#assembling-a-profile): static
 * texts, the boundary, then the dynamic sections rendered from the context
 * through the session's section cache.
 */
import { ArgumentError, checkBundle, checkOneOf, checkOptionalString, checkPromptInput, checkString, isRecord, optionsOf } from './arguments.js';
import { BundleError, type Bundle, type BundleProfile, type DynamicSection } from './bundle.js';
import {
  DANGEROUS_uncachedSystemPromptSection,
  checkSectionCache,
  resolveSections,
  systemPromptSection,
  type SectionCache,
  type SystemPromptSection,
} from './section-cache.js';
import { asBundlePrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from './system-prompt.js';
import { hasText, trimTrailingNewlines } from './text.js';

/** `simple` and `proactive` select the profiles of those names, whatever `profile` says. */
export type PromptMode = 'default' | 'simple' | 'proactive';

export interface GetSystemPromptOptions {
  /** Profile for the default mode; `default` when absent. */
  profile?: string;
  /** The values the dynamic sections' templates read. */
  context: Record<string, unknown>;
  /** The session's cache (see `createSectionCache`). */
  cache: SectionCache;
  mode?: PromptMode;
}

export async function getSystemPrompt(bundle: Bundle, options: GetSystemPromptOptions): Promise<SystemPrompt> {
  checkAssembly(bundle, options);
  const profile = findProfile(bundle, profileName(options));
  const source = { kind: 'profile', name: profile.name } as const;
  // The boundary is there even when nothing follows it (a static-only profile): whatever a caller
  // appends later (system context, `appendSystemPrompt`) must land after the cached prefix, never in it.
  if (profile.dynamicSections.length === 0) return asBundlePrompt([...profile.staticTexts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY], profile.staticPrefixHash, source);
  const sections = profile.dynamicSections.map((section) => toPromptSection(section, options.context));
  const values = await resolveSections(sections, options.cache);
  return asBundlePrompt([...profile.staticTexts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, ...values.filter(hasText)], profile.staticPrefixHash, source);
}

export interface GetAgentSystemPromptOptions {
  /**
   * What follows the agent's text in the session-specific tail: the
   * environment details (working directory, platform, model…), as the seed
   * system appends them to a sub-agent's prompt.
   */
  environment?: string | readonly string[] | null;
}

/**
 * An agent's prompt as a SystemPrompt: its text is the same for every user,
 * so it is the static prefix (identified by the agent's artifact hash), and
 * the environment goes after the boundary.
 */
export function getAgentSystemPrompt(bundle: Bundle, name: string, given?: GetAgentSystemPromptOptions): SystemPrompt {
  checkBundle('getAgentSystemPrompt', 'bundle', bundle);
  checkString('getAgentSystemPrompt', 'name', name);
  const options = optionsOf('getAgentSystemPrompt', given);
  checkPromptInput('getAgentSystemPrompt', 'options.environment', options.environment);
  const agent = bundle.agents.get(name);
  if (agent === undefined) {
    const known = [...bundle.agents.keys()].join(', ') || 'none';
    throw new BundleError(`the bundle has no agent ${JSON.stringify(name)} (agents: ${known})`);
  }
  const environment = typeof options.environment === 'string' ? [options.environment] : (options.environment ?? []);
  const parts = [agent.prompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, ...environment.filter(hasText)];
  return asBundlePrompt(parts, agent.definition.hash, { kind: 'agent', name });
}

const MODES: readonly PromptMode[] = ['default', 'simple', 'proactive'];

function checkAssembly(bundle: Bundle, options: GetSystemPromptOptions): void {
  const fn = 'getSystemPrompt';
  checkBundle(fn, 'bundle', bundle);
  if (!isRecord(options)) throw new ArgumentError(fn, 'options', 'an object with context and cache', options);
  if (!isRecord(options.context)) throw new ArgumentError(fn, 'options.context', 'an object of the values the templates read', options.context);
  checkSectionCache(fn, 'options.cache', options.cache);
  checkOptionalString(fn, 'options.profile', options.profile);
  checkOneOf(fn, 'options.mode', options.mode, MODES);
}

function profileName({ mode, profile }: GetSystemPromptOptions): string {
  if (mode === 'simple' || mode === 'proactive') return mode;
  return profile ?? 'default';
}

function findProfile(bundle: Bundle, name: string): BundleProfile {
  const profile = bundle.profiles.get(name);
  if (profile === undefined) {
    const known = [...bundle.profiles.keys()].join(', ') || 'none';
    throw new BundleError(`the bundle has no profile ${JSON.stringify(name)} (profiles: ${known})`);
  }
  return profile;
}

function toPromptSection(section: DynamicSection, context: Record<string, unknown>): SystemPromptSection {
  const compute = (): string | null => {
    const text = section.render(context);
    return typeof text === 'string' ? trimTrailingNewlines(text) : null;
  };
  return section.cache === 'cached'
    ? systemPromptSection(section.name, compute)
    : DANGEROUS_uncachedSystemPromptSection(section.name, compute, section.reason);
}

/**
 * Assembles one profile of a bundle into a SystemPrompt (SPEC §6.3): static
 * texts, the boundary, then the dynamic sections rendered from the context
 * through the session's section cache.
 */
import { BundleError, type Bundle, type BundleProfile, type DynamicSection } from './bundle.js';
import {
  DANGEROUS_uncachedSystemPromptSection,
  resolveSystemPromptSections,
  systemPromptSection,
  type SectionCache,
  type SystemPromptSection,
} from './section-cache.js';
import { asSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from './system-prompt.js';
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
  const profile = findProfile(bundle, profileName(options));
  if (profile.dynamicSections.length === 0) return asSystemPrompt(profile.staticTexts);
  const sections = profile.dynamicSections.map((section) => toPromptSection(section, options.context));
  const values = await resolveSystemPromptSections(sections, options.cache);
  return asSystemPrompt([...profile.staticTexts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, ...values.filter(hasText)]);
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

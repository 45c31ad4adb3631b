/**
 * What `prompt-build render` shows: a final prompt assembled exactly as a
 * service would — runtime for the bundle and the priority chain, context
 * providers for the environment, git and instruction files — with a label
 * for every part so a reader can tell where each came from.
 */
import { nearestNames } from '../diagnostics/did-you-mean.js';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createContextSession, fetchSystemPromptParts, getEnvInfo, getSystemContext, loadMemoryPrompt } from '../context/index.js';
// The runtime's modules one by one, not its index: render loads only what it uses (no other provider's adapter).
import { toAnthropicSystem, type AnthropicTextBlock } from '../runtime/anthropic.js';
import { getSystemPrompt } from '../runtime/assemble.js';
import { BundleError, type Bundle } from '../runtime/bundle.js';
import type { ProfileEntry } from '../runtime/manifest.js';
import { bundleFileReader, FileRefused, verified } from '../runtime/read-regular-file.js';
import { validateManifestForReaders } from '../runtime/validate-manifest.js';
import { appendSystemContext } from '../runtime/injection.js';
import { loadBundle } from '../runtime/load-bundle.js';
import { buildEffectiveSystemPrompt, CUSTOM_AGENT_INSTRUCTIONS_HEADING } from '../runtime/priority-chain.js';
import { createSectionCache } from '../runtime/section-cache.js';
import { asSystemPrompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, type SystemPrompt } from '../runtime/system-prompt.js';
import { prefixEconomics, type PrefixEconomics } from '../cache-facts/cache-economics.js';
import { staticCountFor } from '../tokens/counter-names.js';
import type { CacheFact } from '../cache-facts/cache-facts.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { trimTrailingNewlines } from '../runtime/text.js';
import { strippedParts, type PartStripped, type StrippedCandidate } from './stripped-parts.js';

export interface AssembleOptions {
  bundleDir: string;
  profile?: string | undefined;
  agent?: string | undefined;
  coordinator?: boolean;
  proactive?: boolean;
  simple?: boolean;
  customSystemPrompt?: string | undefined;
  appendSystemPrompt?: string | undefined;
  overrideSystemPrompt?: string | undefined;
  /** Values for dynamic inputs; they win over what the providers find. */
  context?: Record<string, unknown>;
  cwd: string;
  homeDir?: string;
  now?: Date;
  /** Models to say, for the profile's static prefix, whether it is cached and what it costs. */
  models?: readonly string[];
  cacheFacts?: readonly CacheFact[];
  /** Say, per part, where the comment policy removed comments (`render --show-stripped`). */
  showStripped?: boolean;
  /** Which run-time context to add (`render --context-parts`); all of it when absent. */
  contextParts?: ReadonlySet<ContextPart>;
}

/** The run-time context a coding agent's prompt gets: the git snapshot, the instruction files (CLAUDE.md…), today's date. */
export const CONTEXT_PARTS = ['git', 'instructions', 'date'] as const;
export type ContextPart = (typeof CONTEXT_PARTS)[number];

/** Where each part lands: the system context's key, or the user context's. */
const USER_CONTEXT_KEYS: Readonly<Record<string, ContextPart>> = { claudeMd: 'instructions', currentDate: 'date' };

export interface AssembledPrompt {
  system: SystemPrompt;
  /** One label per part of `system` (section name, `agent:explore`, `append`, `system context`…). */
  labels: string[];
  /** The Anthropic Messages API `system` blocks (`toAnthropicSystem`). */
  blocks: AnthropicTextBlock[];
  userContext: Record<string, string>;
  systemContext: Record<string, string> | null;
  /** The run-time context parts asked for (`render` says which were added). */
  contextParts: ContextPart[];
  /** Static prefix size of the profile used, for the boundary line. */
  staticTokens: number | null;
  /** Per model: is that static prefix cached, and its cost cold and warm (empty without a profile's prefix). */
  cache: PrefixEconomics[];
  warnings: Diagnostic[];
  /** With `showStripped`: per part of `system`, what the comment policy removed from it (null: nothing, or not one of the bundle's texts). */
  stripped?: Array<PartStripped | null>;
}

/** The name `coordinator` is both the coordinator mode and the profile holding its prompt. */
export const COORDINATOR_PROFILE = 'coordinator';
const DEFAULT_MODEL = 'claude-sonnet-4-5';

export async function assemblePrompt(options: AssembleOptions): Promise<AssembledPrompt> {
  const bundle = await loadBundle(options.bundleDir);
  // The loader checks what assembling needs; render prints sizes and comment positions too.
  validateManifestForReaders(bundle.manifest, `bundle ${path.resolve(options.bundleDir)}`);
  const manifestProfiles = new Map(Object.entries(bundle.manifest.profiles));
  const mode = options.simple ? 'simple' : options.proactive ? 'proactive' : 'default';
  const cwd = path.resolve(options.cwd);
  const session = createContextSession();
  const env = await getEnvInfo({ cwd, model: stringOr(options.context?.model, DEFAULT_MODEL) });
  const memory = await loadMemoryFrom(options.context?.memoryDir);
  const cache = createSectionCache();
  const profileName = mode === 'default' ? (options.profile ?? 'default') : mode;
  // Names from the command line are checked first, so a wrong one is named as such, not as a missing default profile.
  const agentPrompt = options.agent === undefined ? undefined : agentText(bundle, options.agent);
  // The default prompt is wanted only where nothing replaces it: an agent does (but in proactive mode), as do a custom and an override prompt.
  const replaced = options.customSystemPrompt !== undefined || options.overrideSystemPrompt !== undefined || (options.agent !== undefined && mode !== 'proactive');
  const hasProfile = bundle.profiles.has(profileName);
  if (!replaced && !hasProfile) {
    throw new SelectionError(`the bundle has no profile '${profileName}'; ${nearestNames(profileName, [...bundle.profiles.keys()], 'profile')}`);
  }

  // The snapshot is memoised by the session, so the parts below reuse it rather than run git again.
  const wanted = options.contextParts ?? new Set<ContextPart>(CONTEXT_PARTS);
  const { gitStatus } = wanted.has('git') ? await getSystemContext({ cwd, wording: bundle }, session) : { gitStatus: undefined };
  const context: Record<string, unknown> = { ...env, ...(memory === null ? {} : { memory }), ...(gitStatus ? { gitStatus } : {}), ...options.context };
  const parts = await fetchSystemPromptParts({
    cwd,
    ...(options.homeDir === undefined ? {} : { homeDir: options.homeDir }),
    ...(options.now === undefined ? {} : { now: options.now }),
    session,
    wording: bundle,
    ...(options.customSystemPrompt === undefined ? {} : { customSystemPrompt: options.customSystemPrompt }),
    getDefaultSystemPrompt: hasProfile ? () => getSystemPrompt(bundle, { profile: profileName, mode, context, cache }) : async () => asSystemPrompt([]),
  });

  const coordinatorContext = { ...env, ...options.context };
  const coordinatorPrompt = options.coordinator ? await staticProfile(bundle, COORDINATOR_PROFILE, coordinatorContext) : undefined;
  const effective = buildEffectiveSystemPrompt({
    overrideSystemPrompt: options.overrideSystemPrompt,
    coordinatorSystemPrompt: coordinatorPrompt,
    agentSystemPrompt: agentPrompt,
    customSystemPrompt: options.customSystemPrompt,
    defaultSystemPrompt: parts.defaultSystemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    proactive: mode === 'proactive',
  });
  const systemContext = wanted.has('git') ? parts.systemContext : null;
  const userContext = Object.fromEntries(Object.entries(parts.userContext).filter(([key]) => wanted.has(USER_CONTEXT_KEYS[key] ?? 'instructions')));
  const system = systemContext ? appendSystemContext(effective, systemContext) : effective;
  const labels = labelParts(system, {
    bundle,
    profile: profileName,
    context,
    coordinatorPrompt,
    agent: options.agent,
    agentPrompt,
    options,
    systemContextAppended: system.length > effective.length,
  });
  const manifestProfile = manifestProfiles.get(profileName);
  return {
    system,
    labels,
    blocks: toAnthropicSystem(system),
    userContext,
    systemContext,
    contextParts: CONTEXT_PARTS.filter((part) => wanted.has(part)),
    staticTokens: manifestProfile?.staticTokens ?? null,
    cache: manifestProfile ? (options.models ?? []).map((model) => prefixEconomics(model, staticCountFor(manifestProfile, model), options.cacheFacts)) : [],
    warnings: parts.warnings,
    ...(options.showStripped
      ? { stripped: strippedParts(system, strippedCandidates(bundle, manifestProfiles, options, { profile: profileName, context, coordinatorContext })) }
      : {}),
  };
}

/**
 * Every text this prompt may hold, with what the comment policy removed
 * from it: the profile's sections (and the coordinator profile's in
 * coordinator mode), the agent's prompt, alone or under the proactive
 * heading, and the texts given on the command line (which lost nothing).
 */
function strippedCandidates(
  bundle: Bundle,
  manifestProfiles: ReadonlyMap<string, ProfileEntry>,
  options: AssembleOptions,
  s: { profile: string; context: Record<string, unknown>; coordinatorContext: Record<string, unknown> },
): StrippedCandidate[] {
  const candidates: StrippedCandidate[] = [];
  const read = bundleFileReader(path.resolve(options.bundleDir));
  const fromProfile = (name: string, context: Record<string, unknown>): void => {
    const loaded = bundle.profiles.get(name);
    for (const section of manifestProfiles.get(name)?.sections ?? []) {
      const { stripped } = section;
      if (section.kind === 'static') {
        // The loaded bundle keeps static texts by profile, not by artifact (and without the empty ones): read again, as the loader reads.
        const text = trimTrailingNewlines(readStatic(read, section.file, section.hash, options.bundleDir));
        candidates.push({ kind: 'text', text, stripped });
        continue;
      }
      // As labelParts does: rendering again is pure, and gives the text this section printed.
      const text = loaded?.dynamicSections.find((d) => d.name === section.name)?.render(context)?.replace(/\n+$/, '');
      if (text) candidates.push({ kind: 'template', text, template: section.template, stripped });
    }
  };
  fromProfile(s.profile, s.context);
  if (options.coordinator) fromProfile(COORDINATOR_PROFILE, s.coordinatorContext);
  const agent = options.agent === undefined ? undefined : bundle.agents.get(options.agent);
  if (agent) {
    const { stripped } = agent.definition;
    candidates.push({ kind: 'text', text: agent.prompt, stripped });
    candidates.push({ kind: 'text', prefix: `${CUSTOM_AGENT_INSTRUCTIONS_HEADING}\n`, text: agent.prompt, stripped });
  }
  for (const text of [options.overrideSystemPrompt, options.customSystemPrompt, options.appendSystemPrompt]) if (text !== undefined) candidates.push({ kind: 'text', text });
  return candidates;
}

/** A static text read again, checked against the manifest's hash as the loader checked it (a BundleError, like the loader's). */
function readStatic(read: (rel: string) => Buffer, file: string, hash: string, bundleDir: string): string {
  try {
    return verified(read(file), hash).toString('utf8');
  } catch (error) {
    if (error instanceof FileRefused) throw new BundleError(`bundle ${path.resolve(bundleDir)}: ${file} ${error.message}`);
    throw error;
  }
}

function agentText(bundle: Bundle, name: string): string {
  const agent = bundle.agents.get(name);
  if (!agent) throw new SelectionError(`the bundle has no agent '${name}'; ${nearestNames(name, [...bundle.agents.keys()], 'agent')}`);
  return agent.prompt;
}

async function staticProfile(bundle: Bundle, name: string, context: Record<string, unknown>): Promise<string[]> {
  if (!bundle.profiles.has(name)) throw new SelectionError(`coordinator mode needs a '${name}' profile in the bundle`);
  const prompt = await getSystemPrompt(bundle, { profile: name, context, cache: createSectionCache() });
  return prompt.filter((p) => p !== SYSTEM_PROMPT_DYNAMIC_BOUNDARY);
}

async function loadMemoryFrom(dir: unknown): Promise<string | null> {
  if (typeof dir !== 'string') return null;
  await fs.mkdir(dir, { recursive: true });
  return loadMemoryPrompt({ memoryDir: dir });
}

/** A wrong profile or agent name on the command line (a render-time failure of a section is the runtime's RenderError). */
export class SelectionError extends Error {}

interface LabelSources {
  bundle: Bundle;
  profile: string;
  context: Record<string, unknown>;
  coordinatorPrompt: readonly string[] | undefined;
  agent: string | undefined;
  agentPrompt: string | undefined;
  options: AssembleOptions;
  systemContextAppended: boolean;
}

/** Names each part by matching it against the texts it can have come from. */
function labelParts(system: SystemPrompt, s: LabelSources): string[] {
  const known = new Map<string, string>();
  const add = (text: string | null | undefined, label: string) => {
    if (text && !known.has(text)) known.set(text, label);
  };
  const profile = s.bundle.profiles.get(s.profile);
  const staticNames = (Object.hasOwn(s.bundle.manifest.profiles, s.profile) ? s.bundle.manifest.profiles[s.profile] : undefined)?.sections.filter((x) => x.kind === 'static').map((x) => x.name) ?? [];
  profile?.staticTexts.forEach((text, i) => add(text, `${staticNames[i] ?? 'static'} (static)`));
  // Rendering again is cheap and pure: it tells which text each dynamic section produced.
  for (const section of profile?.dynamicSections ?? []) add(section.render(s.context)?.replace(/\n+$/, ''), `${section.name} (dynamic, ${section.cache})`);
  s.coordinatorPrompt?.forEach((text) => add(text, 'coordinator'));
  if (s.agent) add(s.agentPrompt, `agent: ${s.agent}`);
  add(s.options.overrideSystemPrompt, 'override');
  add(s.options.customSystemPrompt, 'custom system prompt');
  add(s.options.appendSystemPrompt, 'append');
  return system.map((part, i) => {
    if (part === SYSTEM_PROMPT_DYNAMIC_BOUNDARY) return 'boundary';
    if (s.systemContextAppended && i === system.length - 1) return 'system context';
    if (part.startsWith(CUSTOM_AGENT_INSTRUCTIONS_HEADING)) return `agent: ${s.agent} (proactive)`;
    return known.get(part) ?? 'part';
  });
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

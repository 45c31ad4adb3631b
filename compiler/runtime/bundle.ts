/**
 * The loaded form of a bundle: every text read, every thunk instantiated, so
 * assembling a prompt does no I/O and no parsing. Both loaders (directory and
 * single-file module) end here, which is what makes their prompts identical.
 */
import type { AgentEntry, Manifest, ThunkFactory, ThunkRuntime } from './manifest.js';
import { hasText, trimTrailingNewlines } from './text.js';
import { createThunkRuntime, type HandlebarsRuntimeEnvironment } from './thunk-runtime.js';

export interface Bundle {
  readonly manifest: Manifest;
  readonly profiles: ReadonlyMap<string, BundleProfile>;
  readonly agents: ReadonlyMap<string, BundleAgent>;
}

export interface BundleProfile {
  readonly name: string;
  /** The static section texts in profile order, trailing newlines trimmed. */
  readonly staticTexts: readonly string[];
  /** The dynamic sections in profile order (all of them come after the static ones). */
  readonly dynamicSections: readonly DynamicSection[];
  /** The manifest's hash over the static sections: what identifies the static prefix to a provider's cache. */
  readonly staticPrefixHash: string;
}

/** A compiled template bound to the runtime; it may return null, for no section (docs/output.md#the-files). */
export type RenderSection = (context: Record<string, unknown>) => string | null;

/** An uncached section cannot exist without its reason. */
export type DynamicSection =
  | { readonly name: string; readonly cache: 'cached'; readonly render: RenderSection }
  | {
      readonly name: string;
      readonly cache: 'uncached';
      readonly reason: string;
      readonly render: RenderSection;
    };

export interface BundleAgent {
  readonly definition: AgentEntry;
  /** The agent's system prompt, trailing newlines trimmed. */
  readonly prompt: string;
}

/** A bundle that cannot be trusted to give the right prompt: the message names the file. */
export class BundleError extends Error {
  override name = 'BundleError';
}

/** Artifact contents by manifest path, already read (and, where the loader can, verified). */
export interface BundleArtifacts {
  readonly texts: ReadonlyMap<string, string>;
  readonly thunks: ReadonlyMap<string, ThunkFactory>;
}

/**
 * Links a validated manifest to its artifacts. `origin` names the bundle in
 * error messages (a directory, or "bundle module"); `handlebars` is
 * `handlebars/runtime` when one of the thunks needs it.
 */
export function createBundle(manifest: Manifest, artifacts: BundleArtifacts, origin: string, handlebars: HandlebarsRuntimeEnvironment | null = null): Bundle {
  const rt = createThunkRuntime(handlebars);
  const textOf = (file: string): string => trimTrailingNewlines(lookup(artifacts.texts, file, origin));
  const renderOf = (file: string): RenderSection =>
    instantiate(lookup(artifacts.thunks, file, origin), rt, file, origin);

  const profiles = new Map<string, BundleProfile>();
  for (const [name, entry] of Object.entries(manifest.profiles)) {
    const staticTexts: string[] = [];
    const dynamicSections: DynamicSection[] = [];
    for (const section of entry.sections) {
      if (section.kind === 'static') {
        // An empty static text would only add a stray blank line to the prefix.
        const text = textOf(section.file);
        if (hasText(text)) staticTexts.push(text);
      } else if (section.cache === 'cached') {
        dynamicSections.push({ name: section.name, cache: 'cached', render: renderOf(section.file) });
      } else {
        const { reason } = section;
        if (!hasText(reason)) {
          throw new BundleError(`${origin}: uncached section ${section.name} in profile ${name} has no reason`);
        }
        dynamicSections.push({ name: section.name, cache: 'uncached', reason, render: renderOf(section.file) });
      }
    }
    profiles.set(name, { name, staticTexts, dynamicSections, staticPrefixHash: entry.staticPrefixHash });
  }

  const agents = new Map<string, BundleAgent>();
  for (const [name, definition] of Object.entries(manifest.agents)) {
    agents.set(name, { definition, prompt: textOf(definition.file) });
  }

  return { manifest, profiles, agents };
}

function lookup<T>(artifacts: ReadonlyMap<string, T>, file: string, origin: string): T {
  const value = artifacts.get(file);
  if (value === undefined) throw new BundleError(`${origin}: artifact ${file} is missing`);
  return value;
}

function instantiate(factory: ThunkFactory, rt: ThunkRuntime, file: string, origin: string): RenderSection {
  let render: unknown;
  try {
    render = factory(rt);
  } catch (cause) {
    throw new BundleError(`${origin}: thunk ${file} failed to initialise: ${String(cause)}`, { cause });
  }
  if (typeof render !== 'function') {
    throw new BundleError(`${origin}: thunk ${file} did not return a render function`);
  }
  return render as RenderSection;
}

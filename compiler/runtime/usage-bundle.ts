/**
 * What a usage record needs from the bundle a prompt came from: a short
 * identity of the bundle, and the static sections of a profile's (or an
 * agent's) prefix with their hashes — what names the sections behind a
 * `system_changed` miss (docs/usage.md#miss-reasons).
 */
import { checkBundle } from './arguments.js';
import type { Bundle } from './bundle.js';
import type { ProfileEntry } from './manifest.js';
import type { PromptSource } from './system-prompt.js';

/**
 * A label for the bundle: 16 hex digits of FNV-1a (64-bit) over every
 * profile's and agent's name and artifact hashes, in a fixed order. The
 * artifacts' own sha256 hashes are what loading verifies; this only tells
 * builds apart in a log, and needs no hashing library, so it is the same in
 * every host (the Python runtime computes the same value).
 */
export function bundleIdentity(bundle: Bundle): string {
  checkBundle('bundleIdentity', 'bundle', bundle);
  return fnv1a64(identityText(bundle));
}

/** One line per profile and agent, sorted (by UTF-16 code units, as the Python twin sorts too). */
export function identityText(bundle: Bundle): string {
  const { profiles, agents } = bundle.manifest;
  const lines: string[] = [];
  for (const name of Object.keys(profiles).sort()) {
    const profile = profiles[name]!;
    const sections = profile.sections.map((section) => `${section.kind}:${section.name}:${section.hash}`);
    lines.push(['profile', name, profile.staticPrefixHash, ...sections].join('\t'));
  }
  for (const name of Object.keys(agents).sort()) lines.push(['agent', name, agents[name]!.hash].join('\t'));
  return lines.join('\n');
}

/**
 * FNV-1a, 64-bit, in four 16-bit limbs (BigInt arithmetic is a hundred times
 * slower): multiplying by the prime 2^40 + 0x1b3 is a multiply by 0x1b3 plus
 * the value shifted 40 bits, carried limb by limb.
 */
function fnv1a64(text: string): string {
  let [h0, h1, h2, h3] = [0x2325, 0x8422, 0x9ce4, 0xcbf2];
  for (const byte of new TextEncoder().encode(text)) {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + h0 * 0x100 + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + h1 * 0x100 + (t2 >>> 16);
    [h0, h1, h2, h3] = [t0 & 0xffff, t1 & 0xffff, t2 & 0xffff, t3 & 0xffff];
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

/** A static section of a prefix: its name and the hash of its text. */
export type StaticSection = readonly [name: string, hash: string];

/**
 * The static sections of the prefix `source` names, when `bundle` holds it
 * with this hash (a prompt of another build of the same profile does not
 * match); an agent's prefix is its one text.
 */
export function staticSectionsOf(bundle: Bundle, source: PromptSource, staticPrefixHash: string): StaticSection[] | null {
  if (source.kind === 'agent') {
    const agent = Object.hasOwn(bundle.manifest.agents, source.name) ? bundle.manifest.agents[source.name] : undefined;
    return agent !== undefined && agent.hash === staticPrefixHash ? [[source.name, agent.hash]] : null;
  }
  const profile = Object.hasOwn(bundle.manifest.profiles, source.name) ? bundle.manifest.profiles[source.name] : undefined;
  if (profile === undefined || profile.staticPrefixHash !== staticPrefixHash) return null;
  return profileStaticSections(profile);
}

/** A profile's static sections, in order, each with the hash of its text: what its static prefix is made of. */
export function profileStaticSections(profile: ProfileEntry): StaticSection[] {
  return profile.sections.filter((section) => section.kind === 'static').map((section) => [section.name, section.hash] as const);
}

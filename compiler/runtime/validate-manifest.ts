/**
 * Checks a parsed manifest before the runtime trusts it. Only what assembling
 * a prompt relies on is checked — the schema version, artifact paths and
 * hashes, section kinds and order; informational fields (sizes, tokens,
 * sources, maps) pass through as written, since nothing is computed from them.
 */
import { BundleError } from './bundle.js';
import { SCHEMA_VERSION, type Manifest } from './manifest.js';

export function validateManifest(value: unknown, origin: string): Manifest {
  if (!isRecord(value)) throw new BundleError(`${origin}: the manifest is not a JSON object`);
  if (value.schemaVersion !== SCHEMA_VERSION) {
    throw new BundleError(
      `${origin}: manifest schemaVersion ${JSON.stringify(value.schemaVersion)} is not supported; ` +
        `this runtime reads schemaVersion ${SCHEMA_VERSION}. Rebuild the bundle with a prompt-build ` +
        `version that matches the runtime.`,
    );
  }
  const problems = [...profileProblems(value.profiles), ...agentProblems(value.agents)];
  if (problems.length > 0) {
    throw new BundleError(`${origin}: invalid manifest:\n  ${problems.join('\n  ')}`);
  }
  const manifest = value as unknown as Manifest;
  listArtifacts(manifest, origin); // throws when one file is named with two different hashes
  return manifest;
}

export interface Artifact {
  file: string;
  /** sha256 hex of the file's bytes. */
  hash: string;
}

/**
 * Every file the runtime reads, once each, sorted by path: texts (static
 * sections and agent prompts) and thunk modules. One file named with two
 * different hashes is an inconsistent manifest.
 */
export function listArtifacts(manifest: Manifest, origin: string): { texts: Artifact[]; thunks: Artifact[] } {
  const texts = new Map<string, string>();
  const thunks = new Map<string, string>();
  const add = (into: Map<string, string>, { file, hash }: Artifact): void => {
    const known = into.get(file);
    if (known !== undefined && known !== hash) {
      throw new BundleError(`${origin}: the manifest names ${file} with two different hashes`);
    }
    into.set(file, hash);
  };
  for (const profile of Object.values(manifest.profiles)) {
    for (const section of profile.sections) add(section.kind === 'static' ? texts : thunks, section);
  }
  for (const agent of Object.values(manifest.agents)) add(texts, agent);
  return { texts: sorted(texts), thunks: sorted(thunks) };
}

function sorted(artifacts: Map<string, string>): Artifact[] {
  return [...artifacts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, hash]) => ({ file, hash }));
}

function profileProblems(profiles: unknown): string[] {
  if (!isRecord(profiles)) return ['"profiles" is not an object'];
  const problems: string[] = [];
  for (const [name, profile] of Object.entries(profiles)) {
    const where = `profile ${name}`;
    if (!isRecord(profile) || !Array.isArray(profile.sections)) {
      problems.push(`${where}: no "sections" list`);
      continue;
    }
    let staticCount = 0;
    let seenDynamic = false;
    for (const [index, section] of profile.sections.entries()) {
      const at = `${where}, section ${index}`;
      if (!isRecord(section)) {
        problems.push(`${at}: not an object`);
        continue;
      }
      problems.push(...artifactProblems(section, at));
      if (typeof section.name !== 'string' || section.name === '') problems.push(`${at}: no name`);
      if (section.kind === 'static') {
        staticCount++;
        if (seenDynamic) problems.push(`${at}: static section after a dynamic one`);
      } else if (section.kind === 'dynamic') {
        seenDynamic = true;
        if (section.cache !== 'cached' && section.cache !== 'uncached') {
          problems.push(`${at}: cache must be "cached" or "uncached"`);
        }
      } else {
        problems.push(`${at}: kind must be "static" or "dynamic"`);
      }
    }
    if (typeof profile.staticPrefixHash !== 'string' || !/^[0-9a-f]{64}$/.test(profile.staticPrefixHash)) {
      problems.push(`${where}: staticPrefixHash is not a sha256 hex digest`);
    }
    if (profile.boundaryIndex !== staticCount) {
      problems.push(`${where}: boundaryIndex ${String(profile.boundaryIndex)} is not the static count ${staticCount}`);
    }
  }
  return problems;
}

function agentProblems(agents: unknown): string[] {
  if (!isRecord(agents)) return ['"agents" is not an object'];
  return Object.entries(agents).flatMap(([name, agent]) =>
    isRecord(agent) ? artifactProblems(agent, `agent ${name}`) : [`agent ${name}: not an object`],
  );
}

function artifactProblems(entry: Record<string, unknown>, where: string): string[] {
  const problems: string[] = [];
  if (typeof entry.file !== 'string' || !isBundlePath(entry.file)) {
    problems.push(`${where}: file ${JSON.stringify(entry.file)} is not a relative path inside the bundle`);
  }
  if (typeof entry.hash !== 'string' || !/^[0-9a-f]{64}$/.test(entry.hash)) {
    problems.push(`${where}: hash is not a sha256 hex digest`);
  }
  return problems;
}

/** A tampered manifest must not make the loader read outside the bundle. */
export function isBundlePath(file: string): boolean {
  return (
    file !== '' &&
    !file.startsWith('/') &&
    !/[\\:\0]/.test(file) &&
    file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

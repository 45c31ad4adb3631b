/**
 * Checks a parsed manifest before the runtime trusts it. Only what assembling
 * a prompt relies on is checked — the schema version, artifact paths and
 * hashes, section kinds and order; informational fields (sizes, tokens,
 * sources, maps) pass through as written, since nothing is computed from them.
 */
import { BundleError } from './bundle.js';
import { SCHEMA_VERSION, type Manifest } from './manifest.js';
import { isBundlePath } from './bundle-path.js';

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The manifest as the CLI's readers (`inspect`, `report`, `diff`, `check`,
 * `render`, `watch`) use it: everything `validateManifest` checks, and every
 * informational field they print or compute from (names, descriptions,
 * sources, sizes, tools, maps, template paths and hashes) of the type the
 * contract gives it, so a crafted manifest (`tools: "Read"`, `source: null`)
 * is one message naming the field, never a TypeError in the middle of a
 * page. The runtime's loader checks less, as its Python twin does: it
 * computes nothing from these fields.
 */
export function validateManifestForReaders(value: unknown, origin: string): Manifest {
  const manifest = validateManifest(value, origin);
  const problems = [...readerProblems(manifest as unknown as Record<string, unknown>)];
  if (problems.length > 0) {
    // A crafted manifest of thousands of entries is one screen of message, not thousands of lines.
    const shownProblems = problems.length > 10 ? [...problems.slice(0, 10), `… and ${problems.length - 10} more`] : problems;
    throw new BundleError(`${origin}: invalid manifest:\n  ${shownProblems.join('\n  ')}`);
  }
  return manifest;
}

/** A field's type check: the description of what it must be, or null when it is that. */
type Check = (value: unknown) => string | null;

const SHA256 = /^[0-9a-f]{64}$/;
const isString: Check = (v) => (typeof v === 'string' ? null : 'is not a string');
const isCount: Check = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? null : 'is not a number 0 or above');
const isLine: Check = (v) => (Number.isSafeInteger(v) && (v as number) >= 1 ? null : 'is not a line number');
const isHash: Check = (v) => (typeof v === 'string' && SHA256.test(v) ? null : 'is not a sha256 hex digest');
const isPath: Check = (v) => (typeof v === 'string' && isBundlePath(v) ? null : `${shown(v)} is not a relative path inside the bundle`);
/** A value in a message: JSON, cut short. */
const shown = (v: unknown): string => {
  const json = JSON.stringify(v) ?? String(v);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
};
const isStrings: Check = (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? null : 'is not a list of strings');
const isObject: Check = (v) => (isRecord(v) ? null : 'is not an object');
const orNull = (check: Check): Check => (v) => (v === null ? null : check(v));
const isTokenCounts: Check = (v) =>
  isRecord(v) && Object.values(v).every((c) => isRecord(c) && isCount(c.tokens) === null && (c.method === 'exact' || c.method === 'estimate'))
    ? null
    : 'is not a record of token counts';
const isStripped: Check = (v) =>
  isRecord(v) &&
  isCount(v.comments) === null &&
  isCount(v.bytes) === null &&
  (v.at === undefined ||
    (Array.isArray(v.at) && v.at.every((a) => isRecord(a) && isCount(a.offset) === null && typeof a.file === 'string' && isLine(a.line) === null && isCount(a.bytes) === null)))
    ? null
    : 'is not a record of stripped comments';

/** A Claude Code project's texts (additive: docs/claude-code.md): each a text entry with its frontmatter, a skill's reference files too. */
function* claudeCodeProblems(claudeCode: unknown): Generator<string> {
  if (!isRecord(claudeCode)) return yield 'claudeCode is not an object';
  for (const kind of ['skills', 'commands', 'outputStyles', 'rules'] as const) {
    const entries = claudeCode[kind];
    if (entries === undefined) continue;
    if (!isRecord(entries)) {
      yield `claudeCode.${kind} is not an object`;
      continue;
    }
    for (const [key, entry] of Object.entries(entries)) {
      const where = `claudeCode.${kind} ${key}`;
      if (!isRecord(entry)) {
        yield `${where}: not an object`;
        continue;
      }
      yield* fieldProblems(entry, where, { ...TEXT_FIELDS, fields: isObject }, { ...TEXT_OPTIONAL, files: isObject });
      if (isRecord(entry.files)) for (const [file, text] of Object.entries(entry.files)) yield* isRecord(text) ? fieldProblems(text, `${where}, file ${file}`, TEXT_FIELDS, TEXT_OPTIONAL) : [`${where}, file ${file}: not an object`];
    }
  }
  if (claudeCode.skipped !== undefined && !isRecord(claudeCode.skipped)) yield 'claudeCode.skipped is not an object';
}

/** `where: field <what it is not>` for every field whose check fails; `optional` fields may be absent. */
function fieldProblems(entry: Record<string, unknown>, where: string, required: Record<string, Check>, optional: Record<string, Check> = {}): string[] {
  const problems: string[] = [];
  const check = (key: string, test: Check) => {
    const problem = test(entry[key]);
    if (problem !== null) problems.push(`${where}: ${key} ${problem}`);
  };
  for (const [key, test] of Object.entries(required)) check(key, test);
  for (const [key, test] of Object.entries(optional)) if (Object.hasOwn(entry, key) && entry[key] !== undefined) check(key, test);
  return problems;
}

const TEXT_FIELDS = { name: isString, file: isPath, hash: isHash, bytes: isCount, tokens: isCount, source: isString, line: isLine };
const TEXT_OPTIONAL = { tokenCounts: isTokenCounts, stripped: isStripped, map: isPath, mapHash: isHash };

function* readerProblems(manifest: Record<string, unknown>): Generator<string> {
  const tool = manifest.tool;
  if (!isRecord(tool)) yield 'tool is not an object';
  else yield* fieldProblems(tool, 'tool', { name: isString, version: isString });
  if (manifest.options !== undefined) {
    const options = manifest.options;
    if (!isRecord(options)) yield 'options is not an object';
    else yield* fieldProblems(options, 'options', { hash: isString }, { comments: isString, constants: orNull(isString), agentsIgnore: isStrings, agentBodies: isString, targets: isStrings });
  }
  for (const [name, profile] of Object.entries(manifest.profiles as Record<string, Record<string, unknown>>)) {
    const where = `profile ${name}`;
    if (profile.name !== name) yield `${where}: name ${JSON.stringify(profile.name)} is not the profile's key`;
    yield* fieldProblems(profile, where, { description: isString, source: isString, staticTokens: isCount }, { staticTokenCounts: isTokenCounts });
    for (const [index, section] of (profile.sections as Record<string, unknown>[]).entries()) {
      const at = `${where}, section ${index}`;
      yield* fieldProblems(section, at, TEXT_FIELDS, TEXT_OPTIONAL);
      if (section.kind === 'dynamic') {
        yield* fieldProblems(section, at, { template: isPath, inputs: isStrings, optional: isStrings }, { templateHash: isHash, reason: isString, python: isPath, pythonHash: isHash });
      }
    }
  }
  for (const [name, agent] of Object.entries(manifest.agents as Record<string, Record<string, unknown>>)) {
    const where = `agent ${name}`;
    if (agent.name !== name) yield `${where}: name ${JSON.stringify(agent.name)} is not the agent's key`;
    yield* fieldProblems(agent, where, { ...TEXT_FIELDS, description: isString, tools: isStrings }, { ...TEXT_OPTIONAL, model: isString, temperature: isCount, maxTokens: isCount, extra: isObject });
  }
  if (manifest.claudeCode !== undefined) yield* claudeCodeProblems(manifest.claudeCode);
  const sources = manifest.sources;
  if (!isRecord(sources)) yield '"sources" is not an object';
  else for (const [file, source] of Object.entries(sources)) yield* isRecord(source) ? fieldProblems(source, `source ${file}`, { hash: isHash, includes: isStrings }) : [`source ${file}: not an object`];
}

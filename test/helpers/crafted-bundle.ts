/**
 * Bundles as an attacker commits them: a real build's `dist/`, then its
 * manifest edited by hand (hostile names and values) and its texts replaced,
 * each replaced text's hash and size set so every reader's checks pass and
 * the hostile values reach the output.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type JsonObject = Record<string, unknown>;

export async function readManifestJson(dir: string): Promise<JsonObject> {
  return JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as JsonObject;
}

export async function writeManifestJson(dir: string, manifest: JsonObject): Promise<void> {
  await fs.writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

/** `record` with key `from` renamed to `to` (its `name` too), the order of the others kept. */
export function renameKey(record: JsonObject, from: string, to: string): JsonObject {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => (key === from ? [to, { ...(value as JsonObject), name: to }] : [key, value])),
  );
}

/** Every section entry of every profile, and every agent entry. */
export function textEntries(manifest: JsonObject): JsonObject[] {
  const profiles = Object.values(manifest.profiles as Record<string, JsonObject>);
  return [...profiles.flatMap((p) => p.sections as JsonObject[]), ...Object.values(manifest.agents as Record<string, JsonObject>)];
}

/**
 * Replaces the text of the static section or agent prompt written in `file`
 * with `text`, verifiably: every entry naming the file gets its new hash and size.
 */
export async function replaceText(dir: string, manifest: JsonObject, file: string, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  await fs.writeFile(path.join(dir, file), bytes);
  for (const entry of textEntries(manifest).filter((e) => e.file === file)) {
    entry.hash = createHash('sha256').update(bytes).digest('hex');
    entry.bytes = bytes.length;
  }
}

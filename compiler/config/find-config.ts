/** Where a project's config file is: kept apart so a command finds out there is none without loading the config code. */
import fs from 'node:fs';
import path from 'node:path';

/** Searched in this order at the root; the first present wins. */
export const CONFIG_FILES = ['prompt-build.config.ts', 'prompt-build.config.mts', 'prompt-build.config.js', 'prompt-build.config.mjs', 'prompt-build.config.json'] as const;

/**
 * The config file of `root`: `explicit` (resolved against the root) when
 * given, else the first of `CONFIG_FILES` present. Present, not regular: a
 * FIFO or a folder by a config's name is the loader's to refuse, with a
 * diagnostic, not a config silently passed over.
 */
export function findConfigFile(root: string, explicit?: string): string | null {
  if (explicit !== undefined) return path.resolve(root, explicit);
  for (const name of CONFIG_FILES) {
    const file = path.join(root, name);
    if (fs.statSync(file, { throwIfNoEntry: false }) !== undefined) return file;
  }
  return null;
}

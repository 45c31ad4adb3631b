/**
 * The data the user context's texts are rendered from: every instruction file
 * with its path, its kind (a flag the `instructions` text tests, so the words
 * for each kind stay in the prompt set) and its content, and today's date.
 */
import type { InstructionFile } from './discovery.js';

/** The `instructions` text's input: far to near, as discovered. */
export function instructionValues(files: readonly InstructionFile[]): { files: Array<Record<string, unknown>> } {
  return {
    files: files.map((file) => ({
      path: file.path,
      [file.kind]: true,
      ...(file.kind === 'include' ? { includedBy: file.includedBy } : {}),
      content: file.content.trim(),
    })),
  };
}

/** `YYYY-MM-DD` in the local time zone of `now`. */
export function isoDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The text the model reads for the user context: every instruction file under
 * a label with its path and kind, so the model knows where a rule came from
 * and which one wins (later files take precedence), and today's date.
 */
import type { InstructionFile, InstructionKind } from './discovery.js';

/** The rendered instruction files, or null when there are none. */
export function renderInstructions(files: readonly InstructionFile[]): string | null {
  if (files.length === 0) return null;
  const blocks = files.map((file) => `Contents of ${file.path} (${label(file)}):\n\n${file.content.trim()}`);
  return [PREAMBLE, ...blocks].join('\n\n');
}

/** `Today's date is YYYY-MM-DD.` in the local time zone of `now`. */
export function formatCurrentDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `Today's date is ${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.`;
}

const PREAMBLE =
  'Instructions from the user and the codebase are shown below, each under the path and kind of the file it comes from. ' +
  'Follow them exactly as written: they override default behaviour. Where two disagree, the later one takes precedence.';

const DESCRIPTIONS: Record<Exclude<InstructionKind, 'include'>, string> = {
  managed: 'managed policy instructions, set for every user of this machine',
  user: "the user's private instructions for all projects",
  project: 'project instructions, checked into the codebase',
  rules: "rules from the project's rules folder",
  local: "the user's private instructions for this project, not checked in",
  added: 'instructions from an additional working directory',
};

function label(file: InstructionFile): string {
  return file.kind === 'include' ? `include: included by ${file.includedBy}` : `${file.kind}: ${DESCRIPTIONS[file.kind]}`;
}

/**
 * The user context (docs/context.md#instruction-files): instruction files and today's date. This module
 * is the edge: it fills every option from the process (working directory, home
 * directory, platform, environment) and hands plain values to the discovery
 * plan and the reader; the words around the data are the bundle's
 * `instructions` and `current-date` texts (prompts/sections/context/).
 */
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, type IncludeLimits } from '../core/options.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import {
  DEFAULT_FILE_NAMES,
  discoverInstructionFiles,
  planDiscovery,
  type InstructionFile,
  type InstructionFileNames,
} from './discovery.js';
import { instructionValues, isoDate } from './wording-values.js';
import type { Bundle } from '../runtime/bundle.js';
import { renderContextText } from '../runtime/context-wording.js';
import type { ContextSession } from './session.js';
import { wordingFor } from './wording.js';

export interface UserContextOptions {
  /** Default: `process.cwd()`. */
  cwd?: string;
  /** Default: `os.homedir()`. */
  homeDir?: string;
  /** The managed policy file; null for none. Default: the platform's Claude Code policy path. */
  managedPath?: string | null;
  /** Extra working directories (absolute, or relative to `cwd`), read even in bare mode. */
  additionalDirectories?: readonly string[];
  /** Skip auto-discovery; added directories are still read. */
  bare?: boolean;
  /** Turn instruction files off entirely. Default: `PROMPT_BUILD_DISABLE_INSTRUCTIONS` is set to 1/true/yes/on. */
  disabled?: boolean;
  /** Files the session is working on (absolute, or relative to `cwd`), for rules files with `paths:`. */
  filesInPlay?: readonly string[];
  /** Default: now. */
  now?: Date;
  /** Names to look for, merged over the CLAUDE.md-compatible defaults. */
  fileNames?: Partial<InstructionFileNames>;
  /** Include guards. Default: `DEFAULT_LIMITS`. */
  limits?: IncludeLimits;
  /** The bundle whose `context` profile words the files and the date; the embedded set's when absent or when it has none. */
  wording?: Bundle;
  /** Loads the embedded wording once for all calls that share it. */
  session?: ContextSession;
}

export interface UserContext {
  /** The instruction files rendered with their paths and kinds, or null when there are none. */
  instructions: string | null;
  /** Far to near; an included file comes right before the file that includes it. */
  files: InstructionFile[];
  /** The date line, as worded by the `current-date` text (`Today's date is YYYY-MM-DD.`). */
  currentDate: string;
  /** `YYYY-MM-DD`, the data of that line. */
  date: string;
  /** Files or includes that were skipped for a reason the user should hear about. */
  warnings: Diagnostic[];
}

export const DISABLE_ENV = 'PROMPT_BUILD_DISABLE_INSTRUCTIONS';

export async function getUserContext(options: UserContextOptions = {}): Promise<UserContext> {
  const wording = await wordingFor(options.wording, options.session);
  const date = isoDate(options.now ?? new Date());
  const currentDate = renderContextText(wording, 'current-date', { date });
  const disabled = options.disabled ?? isSet(process.env[DISABLE_ENV]);
  if (disabled) return { instructions: null, files: [], currentDate, date, warnings: [] };

  const cwd = path.resolve(options.cwd ?? process.cwd());
  const homeDir = options.homeDir ?? os.homedir();
  const locations = planDiscovery({
    cwd,
    homeDir,
    managedPath: options.managedPath === undefined ? defaultManagedPath(process.platform) : options.managedPath,
    additionalDirectories: (options.additionalDirectories ?? []).map((dir) => path.resolve(cwd, dir)),
    bare: options.bare ?? false,
    names: { ...DEFAULT_FILE_NAMES, ...options.fileNames },
  });
  const { files, warnings } = await discoverInstructionFiles(locations, {
    homeDir,
    limits: options.limits ?? DEFAULT_LIMITS,
    filesInPlay: options.filesInPlay ?? [],
    cwd,
  });
  const instructions = files.length === 0 ? null : renderContextText(wording, 'instructions', instructionValues(files));
  return { instructions, files, currentDate, date, warnings };
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}

/** Where organisations put a machine-wide policy file for CLAUDE.md-compatible agents. */
function defaultManagedPath(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return '/Library/Application Support/ClaudeCode/CLAUDE.md';
    case 'win32':
      return 'C:\\Program Files\\ClaudeCode\\CLAUDE.md';
    default:
      return '/etc/claude-code/CLAUDE.md';
  }
}

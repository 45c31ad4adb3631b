/**
 * The three parts of a request's prompt (docs/context.md#the-three-parts), fetched concurrently:
 * the default system prompt, the user context and the system context. A
 * custom system prompt replaces the default one, and the git snapshot goes
 * with it (it is appended to the default prompt only), so neither is computed.
 *
 * The default prompt's builder is injected: it is the runtime's job
 * (`getSystemPrompt`), and taking it as a function keeps `context/` free of
 * any dependency on the runtime.
 */
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import type { Bundle } from '../runtime/index.js';
import { getSystemContext, type SystemContext } from './git.js';
import type { ContextSession } from './session.js';
import { getUserContext, type UserContext, type UserContextOptions } from './user-context.js';
import { wordingFor } from './wording.js';

export interface SystemPromptPartsOptions extends UserContextOptions {
  /** Builds the default system prompt, e.g. `() => getSystemPrompt(bundle, …)`. */
  getDefaultSystemPrompt: () => Promise<readonly string[]>;
  /** When given (even empty), the default prompt and the system context are skipped. */
  customSystemPrompt?: string;
  /** Memoises the git snapshot; without one it is taken on every call. */
  session?: ContextSession;
}

/** For the runtime's `prependUserContext(messages, userContext, wording)` / `appendSystemContext(prompt, systemContext)`. */
export type SystemPromptParts = PromptParts & {
  /** The bundle that worded the parts (`options.wording` when it has the wording, else the embedded one): pass it to `prependUserContext`. */
  wording: Bundle;
};

/** The parts themselves, as `fetchParts` computes them. */
export type PromptParts = {
  /** `claudeMd` (the rendered instruction files, when there are any) and `currentDate`. */
  userContext: Record<string, string>;
  /** From instruction-file discovery: skipped includes and rules files. */
  warnings: Diagnostic[];
} & (
  | { defaultSystemPrompt: readonly string[]; systemContext: Record<string, string> }
  | { defaultSystemPrompt: null; systemContext: null }
);

export async function fetchSystemPromptParts(options: SystemPromptPartsOptions): Promise<SystemPromptParts> {
  const { getDefaultSystemPrompt, customSystemPrompt, session, ...userOptions } = options;
  const wording = await wordingFor(options.wording, session);
  const parts = await fetchParts(
    {
      defaultSystemPrompt: getDefaultSystemPrompt,
      userContext: () => getUserContext({ ...userOptions, wording, ...(session ? { session } : {}) }),
      systemContext: () => getSystemContext({ cwd: userOptions.cwd, wording }, session),
    },
    customSystemPrompt !== undefined,
  );
  return { ...parts, wording };
}

/** The three computations behind the parts; separate from the options so their scheduling can be tested on its own. */
export interface PartProviders {
  defaultSystemPrompt: () => Promise<readonly string[]>;
  userContext: () => Promise<UserContext>;
  systemContext: () => Promise<SystemContext>;
}

/** All needed providers are started before any is awaited. */
export async function fetchParts(providers: PartProviders, hasCustomPrompt: boolean): Promise<PromptParts> {
  if (hasCustomPrompt) {
    const user = await providers.userContext();
    return { defaultSystemPrompt: null, systemContext: null, ...userParts(user) };
  }
  const [defaultSystemPrompt, user, system] = await Promise.all([
    providers.defaultSystemPrompt(),
    providers.userContext(),
    providers.systemContext(),
  ]);
  const systemContext: Record<string, string> = system.gitStatus === undefined ? {} : { gitStatus: system.gitStatus };
  return { defaultSystemPrompt, systemContext, ...userParts(user) };
}

function userParts(user: UserContext): Pick<PromptParts, 'userContext' | 'warnings'> {
  const { instructions, currentDate, warnings } = user;
  const userContext: Record<string, string> =
    instructions === null ? { currentDate } : { claudeMd: instructions, currentDate };
  return { userContext, warnings };
}

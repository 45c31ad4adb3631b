/**
 * `prompt-build/context`: what a session needs beside the compiled bundle
 * (docs/context.md) — instruction files, the git snapshot, memory, the environment —
 * and the three prompt parts fetched together (docs/context.md#the-three-parts).
 */
export { getUserContext, DISABLE_ENV, type UserContext, type UserContextOptions } from './user-context.js';
export { DEFAULT_FILE_NAMES, type InstructionFile, type InstructionFileNames, type InstructionKind } from './discovery.js';
export {
  getSystemContext,
  GIT_SNAPSHOT_COMMANDS,
  MAX_STATUS_CHARS,
  type SystemContext,
  type SystemContextOptions,
} from './git.js';
export { createContextSession, type ContextSession } from './session.js';
export {
  loadMemoryPrompt,
  loadMemory,
  MEMORY_INDEX,
  MEMORY_TYPES,
  MAX_INDEX_LINES,
  MAX_INDEX_BYTES,
  type MemoryOptions,
  type MemorySnapshot,
  type MemoryIndex,
  type MemoryProblem,
  type MemoryType,
} from './memory.js';
export { getEnvInfo, type EnvInfo, type EnvInfoOptions } from './env.js';
export { fetchSystemPromptParts, type SystemPromptParts, type SystemPromptPartsOptions } from './parts.js';

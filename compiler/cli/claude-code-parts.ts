import type { ClaudeCodeBundle } from '../runtime/manifest.js';

/** A Claude Code bundle's parts (docs/claude-code.md), in the order they are shown, each with the word for one of its files. */
export function claudeCodeParts(claudeCode: ClaudeCodeBundle) {
  return [
    [claudeCode.skills, 'skill'],
    [claudeCode.commands, 'command'],
    [claudeCode.outputStyles, 'output style'],
    [claudeCode.rules, 'rule'],
  ] as const;
}

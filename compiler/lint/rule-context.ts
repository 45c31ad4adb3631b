/**
 * What the built-in rules share while they run over one build: the code
 * ranges of each file they look into, found once, and the one way to find a
 * pattern in a compiled text and say where it was written — through the
 * text's segments, in the file it came from (an included fragment names
 * itself), outside that file's code.
 */
import { sourcePositionOf, type CompiledText } from '../definitions/compile-text.js';
import type { Position } from '../diagnostics/diagnostics.js';
import type { Range } from '../markdown/prose.js';
import { codeRanges, inRanges } from './code-ranges.js';
import type { CompiledProject } from './project.js';

export interface WrittenAt extends Position {
  file: string;
  offset: number;
}

export interface RuleContext {
  project: CompiledProject;
  /** The matches of `pattern` (global) in `compiled.text` written outside code, each with where it was written. */
  matches(compiled: CompiledText, pattern: RegExp): Array<{ match: RegExpMatchArray; at: WrittenAt }>;
  /** Whether a file's offset is in its code (false for a file not loaded). */
  inCode(file: string, offset: number): boolean;
}

export function ruleContext(project: CompiledProject): RuleContext {
  const code = new Map<string, Range[]>();
  const inCode = (file: string, offset: number): boolean => {
    let ranges = code.get(file);
    if (!ranges) {
      const source = project.source(file);
      code.set(file, (ranges = source ? codeRanges(source) : []));
    }
    return inRanges(ranges, offset);
  };
  return {
    project,
    inCode,
    matches(compiled, pattern) {
      const out: Array<{ match: RegExpMatchArray; at: WrittenAt }> = [];
      for (const match of compiled.text.matchAll(pattern)) {
        const at = sourcePositionOf(compiled, match.index ?? 0, project.source);
        if (at !== null && !inCode(at.file, at.offset)) out.push({ match, at });
      }
      return out;
    },
  };
}

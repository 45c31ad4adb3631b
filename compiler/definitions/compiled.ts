/** What stage 4 (compile) makes of a section, an agent or a Claude Code file: its definition and its compiled text. */
import type { CompiledText } from './compile-text.js';
import type { AgentDef, SectionDef } from './definitions.js';
import type { ClaudeFileDef } from './claude-code.js';

export interface CompiledSection {
  def: SectionDef;
  compiled: CompiledText;
}

export interface CompiledAgent {
  def: AgentDef;
  compiled: CompiledText;
}

export interface CompiledClaudeFile {
  def: ClaudeFileDef;
  compiled: CompiledText;
}

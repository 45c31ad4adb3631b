/** What stage 4 (compile) makes of a section or an agent: its definition and its compiled text. */
import type { CompiledText } from './compile-text.js';
import type { AgentDef, SectionDef } from './definitions.js';

export interface CompiledSection {
  def: SectionDef;
  compiled: CompiledText;
}

export interface CompiledAgent {
  def: AgentDef;
  compiled: CompiledText;
}

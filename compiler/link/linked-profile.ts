/** What stage 5 (link) makes of a profile: its definition with each section name resolved. */
import type { CompiledSection } from '../definitions/compiled.js';
import type { ProfileDef } from '../definitions/definitions.js';
import type { Source } from '../markdown/source.js';

export interface LinkedProfile {
  def: ProfileDef;
  source: Source;
  /**
   * What each name of `def.sections` resolves to: its section; null when only
   * files that failed to compile claim the name (reported where they are
   * written); undefined when nothing does. Never changed: a profile whose
   * sections change is a new object, so what is derived from it is kept with it.
   */
  sections: ReadonlyArray<CompiledSection | null | undefined>;
}

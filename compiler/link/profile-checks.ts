/**
 * The link stage's checks of each profile against the sections there are:
 * unknown sections, sections listed twice, static after dynamic. A profile
 * is checked once while it and the sections it names are unchanged.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';
import { itemPosition } from '../definitions/frontmatter-fields.js';
import { nearestNames } from '../diagnostics/did-you-mean.js';
import type { LinkedProfile } from './linked-profile.js';

/** A profile's errors follow from the profile alone — unless it names an unknown section, whose note lists every known name: kept per profile object by its compiler. */
export type ProfileCheckCache = WeakMap<LinkedProfile, Diagnostic[]>;

/**
 * Profile errors: unknown sections, sections listed twice, static after
 * dynamic. `knownNames`: every section name there is, asked for only by the
 * note on an unknown one.
 */
export function checkProfiles(profiles: readonly LinkedProfile[], knownNames: () => readonly string[], cache: ProfileCheckCache): Diagnostic[] {
  return profiles.flatMap((profile) => checkProfileOnce(profile, knownNames, cache));
}

function checkProfileOnce(profile: LinkedProfile, knownNames: () => readonly string[], cache: ProfileCheckCache): Diagnostic[] {
  let diagnostics = cache.get(profile);
  if (!diagnostics) {
    diagnostics = checkProfile(profile, knownNames);
    if (!profile.sections.includes(undefined)) cache.set(profile, diagnostics);
  }
  return diagnostics;
}

function checkProfile({ def, source, sections }: LinkedProfile, knownNames: () => readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (item: string) => itemPosition(source, 'sections', item);
  const seen = new Set<string>();
  let firstDynamic: string | undefined;
  for (const [i, name] of def.sections.entries()) {
    const section = sections[i];
    if (section === undefined) {
      // The three nearest names and a count: a project may know hundreds of sections.
      const note = nearestNames(name, [...knownNames()].sort(), 'section');
      out.push(diagnostic('profile/unknown-section', def.source, at(name), `profile '${def.name}' lists unknown section '${name}'`, { note }));
      continue;
    }
    if (seen.has(name)) {
      out.push(diagnostic('profile/duplicate-section', def.source, at(name), `profile '${def.name}' lists section '${name}' twice`));
    }
    seen.add(name);
    if (section === null) continue;
    if (section.def.kind === 'dynamic') firstDynamic ??= name;
    else if (firstDynamic !== undefined) {
      out.push(
        diagnostic(
          'profile/static-after-dynamic',
          def.source,
          at(name),
          `static section '${name}' comes after dynamic section '${firstDynamic}' in profile '${def.name}'`,
          { note: 'static sections form the cacheable prefix and must all come before the boundary' },
        ),
      );
    }
  }
  return out;
}

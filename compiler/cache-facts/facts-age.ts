/**
 * How old the built-in cache facts are. Minimums and prices move several
 * times a year, so a build whose table was read more than 180 days before
 * "today" says so once, naming `--cache-facts` as the way to bring newer
 * rows. "Today" is injectable (the `today` build option, or
 * `PROMPT_BUILD_TODAY`) so that no test depends on the real date; the
 * bundle never records it — only the facts' own date — so the same sources
 * give the same bytes on any day.
 *
 * Kept free of the table itself: the up-to-date check (pipeline/project.ts)
 * asks `factsOutdated` on every build and must not load the facts.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostics.js';

/** The day the built-in table (cache-facts.ts) was last checked against its sources. */
export const CACHE_FACTS_READ = '2026-12-04';

/** Older than this, the build warns. */
export const FACTS_MAX_AGE_DAYS = 180;

/** Overrides the real date for the age check (YYYY-MM-DD), as the `today` option does. */
export const TODAY_ENV = 'PROMPT_BUILD_TODAY';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since 1970 of a YYYY-MM-DD that names a real day, or null. */
export function dayNumber(date: string): number | null {
  const m = DAY.exec(date);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Date.UTC rolls 2026-02-31 over into March: only a date that reads back the same is one.
  return new Date(ms).toISOString().slice(0, 10) === date ? ms / 86_400_000 : null;
}

/** The day the check runs as: the option (already validated), or the real UTC date. */
export function checkDay(today: string | undefined): string {
  return today ?? new Date().toISOString().slice(0, 10);
}

/** Whole days from the facts' reading to `today`; negative when today is before it. */
export function factsAgeDays(today: string | undefined, read: string = CACHE_FACTS_READ): number {
  return dayNumber(checkDay(today))! - dayNumber(read)!;
}

export function factsOutdated(today: string | undefined): boolean {
  return factsAgeDays(today) > FACTS_MAX_AGE_DAYS;
}

/**
 * The one warning, on `file` (the first profile: the option has no file of
 * its own until a config file exists); none when the facts are fresh or no
 * configured model is checked against the built-in table (every one has a
 * row of the user's).
 */
export function factsOutdatedWarning(today: string | undefined, usesBuiltIn: boolean, file: string): Diagnostic[] {
  if (!usesBuiltIn || !factsOutdated(today)) return [];
  return [
    diagnostic(
      'cache/facts-outdated',
      file,
      { line: 1, column: 1 },
      `the built-in cache facts were read from their sources on ${CACHE_FACTS_READ}, more than ${FACTS_MAX_AGE_DAYS} days ago: ` +
        "providers' minimums and prices may have moved since",
      {
        severity: 'warning',
        note:
          'bring newer rows with --cache-facts FILE.json (the cacheFacts build option), searched before the built-in ones, ' +
          'or update prompt-build; the manifest records the facts\' date (cacheFacts.read)',
      },
    ),
  ];
}

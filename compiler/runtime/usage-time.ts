/**
 * A usage record's time (docs/usage.md#the-usage-record): read from what the
 * caller gives — an ISO 8601 time with its offset, or milliseconds — and
 * written as `Date#toISOString` writes it (UTC, milliseconds, a four-digit
 * year), by arithmetic: a record is made on every request, and
 * `toISOString` costs twice as much as the rest of the formatting.
 */
import { ArgumentError } from './arguments.js';

/** `time` as the record writes it: ISO 8601 in UTC with milliseconds, whatever offset it was given in. */
export function isoTime(fn: string, time: unknown): string {
  if (time === undefined) {
    const now = Date.now();
    // A clock outside 1970–9999 is written as Date writes it: the arithmetic covers only those years.
    return now >= 0 && now <= LATEST_MS ? isoString(now) : new Date(now).toISOString();
  }
  const ms = typeof time === 'number' ? Math.trunc(time) : typeof time === 'string' ? parseIsoTime(time) : NaN;
  if (!(ms >= 0 && ms <= LATEST_MS)) {
    throw new ArgumentError(fn, 'options.time', 'an ISO 8601 date and time with its offset (…Z, …+02:00) or milliseconds since 1970, before the year 10000', time);
  }
  return isoString(ms);
}

/** 9999-12-31T23:59:59.999Z: the last time both runtimes write with a four-digit year. */
const LATEST_MS = 253402300799999;

/** What both runtimes read alike: a date, a time to the second (a fraction cut to milliseconds) and an offset. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Milliseconds since 1970, or NaN for a string that is not such a time or names no real one (February 30, hour 24). */
export function parseIsoTime(text: string): number {
  const match = ISO_TIME.exec(text);
  if (match === null) return NaN;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, fraction);
  const date = new Date(local);
  // Date.UTC rolls February 30 over into March; a time that did not round-trip is not one.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return NaN;
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return NaN;
  const sign = match[8] === '-' ? -1 : 1;
  return local - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** Two digits of 0–99 and three of 0–999: the fields of a time, padded. */
const TWO: readonly string[] = Object.freeze(Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0')));
const THREE: readonly string[] = Object.freeze(Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0')));
const DAY_MS = 86_400_000;

/**
 * `new Date(ms).toISOString()` for 0 ≤ ms ≤ LATEST_MS (1970 to 9999): the
 * civil date from the days since 1970 by H. Hinnant's `civil_from_days`
 * (eras of 400 years, years starting in March).
 */
export function isoString(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  return `${year}-${TWO[month]}-${TWO[day]}T${TWO[hour]}:${TWO[minute]}:${TWO[second]}.${THREE[rest - second * 1000]}Z`;
}

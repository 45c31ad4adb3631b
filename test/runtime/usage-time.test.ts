/**
 * A usage record's time written by arithmetic (runtime/usage-time.ts) is
 * what `Date#toISOString` writes, from 1970 to the end of 9999: the first
 * and last milliseconds, every leap-day edge a 400-year era has, each
 * month's end, and a spread of random times.
 */
import { describe, expect, it } from 'vitest';
import { isoString } from '../../compiler/runtime/usage-time.js';

const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('isoString', () => {
  it('writes what toISOString writes, from 1970 to 9999', () => {
    const times = [0, 1, 999, 86_399_999, 86_400_000, LATEST, LATEST - 86_400_000];
    for (const year of [1970, 1972, 1999, 2000, 2001, 2024, 2026, 2100, 2400, 9999]) {
      for (let month = 0; month < 12; month++) times.push(Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1) - 1);
      times.push(Date.UTC(year, 1, 28, 12), Date.UTC(year, 1, 29, 23, 59, 59, 999));
    }
    // A fixed spread, not Math.random: the same times on every run.
    for (let i = 0; i < 20_000; i++) times.push(Math.floor(((i * 2_654_435_761) % 1_000_003) / 1_000_003 * LATEST) + (i % 1000));
    const wrong = times.filter((ms) => ms <= LATEST && isoString(ms) !== new Date(ms).toISOString());
    expect(wrong).toEqual([]);
  });
});

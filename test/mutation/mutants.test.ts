/**
 * The deliberate breaks of `npm run mutate` stay pointed at code that exists:
 * a refactor that moves a line a mutant names would leave the mutant applying
 * nothing, and the suite's check of that behaviour silently gone.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';
import { MUTANTS } from './mutants.mjs';

describe('the mutants', () => {
  it('each names a file, a text that stands in it exactly once, and tests that exist', () => {
    const wrong = (MUTANTS as { name: string; file: string; from: string; tests: string[] }[]).flatMap((m) => {
      const file = path.join(REPO, m.file);
      if (!existsSync(file)) return [`${m.name}: no file ${m.file}`];
      const found = readFileSync(file, 'utf8').split(m.from).length - 1;
      const tests = m.tests.filter((t) => !existsSync(path.join(REPO, t)));
      return [...(found === 1 ? [] : [`${m.name}: its text stands ${found} times in ${m.file}`]), ...tests.map((t) => `${m.name}: no test ${t}`)];
    });
    expect(wrong).toEqual([]);
  });
});

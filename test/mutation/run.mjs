#!/usr/bin/env node
/**
 * `npm run mutate [-- NAME-SUBSTRING]`: for each mutant in mutants.mjs, copy
 * the repository's tracked files to a temporary directory (node_modules
 * linked, not copied), apply the break, compile, and run the mutant's tests
 * (vitest files, or Python test modules under python/tests),
 * which must fail. Prints one line per mutant; exits 1 if any survived or no
 * longer applies. Slow by nature (a compile and a test run per mutant): an
 * opt-in habit, not part of `npm test`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MUTANTS } from './mutants.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const only = process.argv[2];
// The copy sits beside a link to the checkout's neighbour `../shared` (the corpus, the token counts),
// so the tests that read it run in the copy too instead of skipping.
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-mutate-'));
const copy = path.join(base, path.basename(REPO));
const shared = path.resolve(REPO, '../shared');
try {
  if (fs.existsSync(shared)) fs.symlinkSync(shared, path.join(base, 'shared'));
  for (const rel of execFileSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).split('\0').filter(Boolean)) {
    const to = path.join(copy, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const from = path.join(REPO, rel);
    if (fs.lstatSync(from).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else fs.copyFileSync(from, to);
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(copy, 'node_modules'));
  let bad = 0;
  for (const m of MUTANTS.filter((x) => !only || x.name.includes(only))) {
    const file = path.join(copy, m.file);
    const original = fs.readFileSync(file, 'utf8');
    if (!original.includes(m.from)) {
      console.log(`STALE     ${m.name}: its text is no longer in ${m.file}`);
      bad++;
      continue;
    }
    fs.writeFileSync(file, original.replace(m.from, m.to));
    try {
      const compiled = spawnSync('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: copy, stdio: 'ignore' });
      if (compiled.status !== 0) {
        console.log(`KILLED    ${m.name} (by the type checker)`);
        continue;
      }
      if (m.tests.every((test) => passes(copy, test))) {
        console.log(`SURVIVED  ${m.name}: ${m.tests.join(' ')} still pass`);
        bad++;
      } else console.log(`KILLED    ${m.name}`);
    } finally {
      fs.writeFileSync(file, original);
    }
  }
  process.exitCode = bad === 0 ? 0 : 1;
} finally {
  fs.rmSync(base, { recursive: true, force: true });
}

/** Whether one test file passes in the copy: a vitest file, or a Python test module (`python/tests/test_*.py`). */
function passes(copy, test) {
  const [command, args] = test.endsWith('.py')
    ? ['python3', ['-m', 'unittest', 'discover', '-s', 'python/tests', '-t', 'python/tests', '-p', path.basename(test)]]
    : ['npx', ['vitest', 'run', test]];
  return spawnSync(command, args, { cwd: copy, stdio: 'ignore', env: { ...process.env, CI: 'true' } }).status === 0;
}

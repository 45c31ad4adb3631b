/**
 * What reaches a terminal is safe to print (issue 12 §3): paths and excerpts
 * from user files have their control characters, ANSI escapes and invisible
 * characters escaped, and an excerpt of a long line is cut around the column.
 * Limits given on the command line are whole numbers, or a usage error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHuman, type Diagnostic } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { copyFixture, REPO, writeTree } from '../helpers/tree.js';

describe('messages are safe to print', () => {
  it('an ANSI escape and a zero-width space in a file name are shown escaped', async () => {
    const root = await copyFixture('build/ok-basic');
    const name = 'prompts/sections/e\u001b]0;pwned\u0007\u200bvil.md';
    await writeTree(root, { [name]: '---\nkind: static\n---\nSee @./nope.md\n' });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/[\u001b\u0007\u200b]/);
    expect(run.stderr).toContain('prompts/sections/e\\e]0;pwned\\x07\\u{200b}vil.md:4:5: error include/missing');
  });

  it('an excerpt of a very long line is cut around the column, caret still under the fault', () => {
    const line = `${'a'.repeat(5000)}@./missing.md${'b'.repeat(5000)}\u001b[2J`;
    const d: Diagnostic = { rule: 'include/missing', severity: 'error', file: 'x.md', line: 1, column: 5001, message: 'included file not found', excerpt: line };
    const text = formatHuman(d);
    expect(Buffer.byteLength(text)).toBeLessThan(400);
    const [, excerpt, caret] = text.split('\n');
    expect(excerpt).toContain('…');
    expect(excerpt!.indexOf('@./missing.md')).toBe(caret!.indexOf('^'));
    expect(text).not.toContain('\u001b');
  });
});

describe('limits on the command line', () => {
  for (const [flag, value] of [['--max-include-depth', 'abc'], ['--max-include-depth', '0'], ['--max-include-bytes', '-5'], ['--max-include-bytes', '1.5']]) {
    it(`${flag} ${value} is a usage error, exit 2`, async () => {
      const root = await copyFixture('build/ok-basic');
      const run = await runCli(['build', '--root', root, '--no-cache', flag!, value!]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${flag} takes a whole number above 0, not '${value}'`);
      await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
    });
  }
});

describe('render names what it cannot find', () => {
  it('an unknown agent is named with the nearest known agents, not as a missing default profile', async () => {
    const run = await runCli(['render', '--root', REPO, '--agent', 'explor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the bundle has no agent 'explor'; did you mean 'explore'.*\(4 agents known\)/);
    expect(run.stderr).not.toContain("no profile 'default'");
  });

  it('an unknown profile likewise', async () => {
    const run = await runCli(['render', '--root', REPO, '--profile', 'defualt']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no profile 'defualt'; did you mean 'default'/);
  });
});

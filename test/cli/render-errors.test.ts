/**
 * `prompt-build render` with a context a section cannot render: one line on
 * stderr naming section and variable, exit 1, no stack trace.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

let root: string;

beforeAll(async () => {
  root = await tempDir('pb-render-errors-');
  await writeTree(root, {
    'prompts/sections/greeting.md': '---\nkind: dynamic\ninputs: [who]\n---\nHello {{who}}.\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [greeting]\n---\n',
  });
  const build = await runCliInProcess(['build', '--root', root]); // setup: render is under test
  expect(build.code).toBe(0);
});

async function renderWith(context: unknown) {
  const file = path.join(root, `ctx-${Math.random().toString(36).slice(2)}.json`);
  await fs.writeFile(file, JSON.stringify(context));
  return runCli(['render', '--root', root, '--cwd', root, '--context', file], {
    env: { GIT_CEILING_DIRECTORIES: path.dirname(root), HOME: root },
  });
}

describe('render with a context that cannot render', () => {
  it('renders a good context (the project under test is sound)', async () => {
    const run = await renderWith({ who: 'world' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Hello world.');
  });

  it('a value that cannot become text: one line, exit 1, no stack', async () => {
    const run = await renderWith({ who: { toString: 'boom' } });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('dynamic section "greeting": the value of "who" cannot become text (its toString is not a function)\n');
  });

  it('a missing variable: the message and how to pass one, exit 1, no stack', async () => {
    const run = await renderWith({});
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('dynamic section "greeting" needs the context variable "who", which is missing\n(pass a value with --context FILE.json)\n');
  });
});

/**
 * The counting thread (tokens/background-counter.ts) gives the counts the
 * build's own thread would, for every text asked, a rebuild's new texts
 * among the kept ones; once gone, it says so and the build counts itself.
 * Threads run compiled JavaScript only, so this reads lib/ (which `npm test`
 * builds first, as the CLI tests need).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';
import { loadO200kCounts } from '../../compiler/tokens/o200k.js';
import { BackgroundCounter as FromSources } from '../../compiler/tokens/background-counter.js';

type Lib = typeof import('../../compiler/tokens/background-counter.js');
const { BackgroundCounter } = (await import(path.join(REPO, 'lib/tokens/background-counter.js'))) as Lib;

describe('the counting thread', () => {
  it('is not started from the TypeScript sources, where its compiled file does not exist (a thread that fails on every build)', () => {
    expect(FromSources.start()).toBeNull();
  });

  it('counts as this thread does, keeps the last request’s counts, and says when it is gone', async () => {
    const here = await loadO200kCounts();
    const counter = BackgroundCounter.start();
    expect(counter).not.toBeNull();
    const first = ['Hello, world.', 'Use the Bash tool.\n', 'x'.repeat(2500), 'Hello, world.'];
    const count = (await counter!.counterFor(first))!;
    for (const text of first) expect(count(text)).toEqual(here(text));
    expect(count('x'.repeat(2500)).exact).toBe(false);
    expect(() => count('never asked')).toThrow(/not among those counted/);

    const second = ['Use the Bash tool.\n', '<|endoftext|> is text here.'];
    const again = (await counter!.counterFor(second))!;
    for (const text of second) expect(again(text)).toEqual(here(text));
    // Only the last request's texts are kept: a dropped text is not answered from memory.
    expect(() => again('Hello, world.')).toThrow(/not among those counted/);

    await counter!.close();
    expect(await counter!.counterFor(['Hello again.'])).toBeNull();
  });

  it('counts the texts sent ahead, while a build compiles, as those asked for at emit', async () => {
    const here = await loadO200kCounts();
    const counter = BackgroundCounter.start()!;
    const texts = Array.from({ length: 150 }, (_, i) => `Section ${i}: ${'word '.repeat(i)}`);
    // Two messages sent, and twelve texts waiting for a third.
    for (const text of texts.slice(0, 140)) counter.countAhead(text);
    const asked = [...texts.slice(100), 'A text never sent ahead.'];
    const count = (await counter.counterFor(asked))!;
    for (const text of asked) expect(count(text)).toEqual(here(text));
    // Sent ahead, not asked for at emit (a section in no profile): not kept.
    expect(() => count(texts[0]!)).toThrow(/not among those counted/);
    await counter.close();
  });

  it.skipIf(process.platform !== 'linux')('a library user’s builds leave no thread behind (/proc/self/task)', async () => {
    const root = await tempDir();
    await writeTree(root, { 'prompts/profiles/default.md': '---\nsections: [a]\n---\n', 'prompts/sections/a.md': '---\nname: a\n---\nHello.\n' });
    const script = `import fs from 'node:fs';
      const { buildProject } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'lib/index.js')).href)});
      const threads = () => fs.readdirSync('/proc/self/task').length;
      await buildProject({ root: process.argv[2], cacheDir: null, write: false });
      const after1 = threads();
      for (let i = 0; i < 4; i++) await buildProject({ root: process.argv[2], cacheDir: null, write: false });
      // A thread ended is gone from the list a moment later: polled, with a deadline.
      const deadline = Date.now() + 10_000;
      while (threads() > after1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      console.log(threads() - after1);`;
    await fs.writeFile(path.join(root, 'threads.mjs'), script);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path.join(root, 'threads.mjs'), root], { timeout: 60_000 }, (error, out) => (error ? reject(error) : resolve(out))),
    );
    expect(Number(stdout.trim())).toBeLessThanOrEqual(0);
  });

  it('neither keeps a library user’s process alive after a build, nor lets it end while a build waits for its counts', async () => {
    const root = await tempDir();
    const sections = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`prompts/sections/s${i}.md`, `Section ${i}.\n`]));
    const profile = `---\nsections: [${Object.keys(sections).map((_, i) => `s${i}`).join(', ')}]\n---\n`;
    await writeTree(root, { ...sections, 'prompts/profiles/default.md': profile });
    await writeTree(path.join(root, 'broken'), { ...sections, 'prompts/sections/s0.md': '@./missing.md\n', 'prompts/profiles/default.md': profile });
    const script = `const { buildProject } = await import(${JSON.stringify(pathToFileURL(path.join(REPO, 'lib/index.js')).href)});
      const [built, broken] = [await buildProject({ root: process.argv[2] }), await buildProject({ root: process.argv[3] })];
      console.log(built.ok, broken.ok, built.manifest.profiles.default.sections[1].tokens > 0);`;
    // A file, not `-e`: a process evaluating `-e` ends when the script does, whatever is still running.
    await fs.writeFile(path.join(root, 'user.mjs'), script);
    // A process the thread kept alive would be killed at the deadline; one it let end early would exit 13 (unfinished await).
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, [path.join(root, 'user.mjs'), root, path.join(root, 'broken')], { timeout: 60_000 }, (_error, out) => resolve({ code: child.exitCode, stdout: out }));
    });
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: 'true false true' });
  });
});

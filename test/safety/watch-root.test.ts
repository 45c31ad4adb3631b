/**
 * `watch` on a root that goes away (issue 12 §1): it keeps the last good
 * bundle, says so on one line, and exits non-zero; it never writes an empty
 * bundle over a good one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../compiler/runtime/index.js';
import { copyFixture, readTree, tempDir } from '../helpers/tree.js';
import { WatchProcess } from '../watch/watch-process.js';

describe('watch when the root goes away', () => {
  for (const how of ['deleted', 'moved'] as const) {
    it(`root ${how}: one line, exit 1, the bundle outside it kept whole`, async () => {
      const root = await copyFixture('build/ok-basic');
      const out = path.join(await tempDir('pb-watch-out-'), 'dist');
      const watcher = new WatchProcess(root, ['--no-cache', '--out', out]);
      await watcher.waitFor(/^watching /);
      const good = await readTree(out);
      if (how === 'deleted') await fs.rm(root, { recursive: true });
      else await fs.rename(root, `${root}-moved`);
      const line = await watcher.waitFor(/is gone/);
      expect(line).toMatch(/keeps the last good build; watch stopped$/);
      expect(await watcher.exitCode()).toBe(1);
      expect(watcher.lines.join('\n')).not.toMatch(/\n\s+at /);
      expect(await readTree(out)).toEqual(good);
      await loadBundle(out);
    });
  }

  it('the sources emptied while the root stays: no empty bundle is written', async () => {
    const root = await copyFixture('build/ok-basic');
    const watcher = new WatchProcess(root);
    await watcher.waitFor(/^watching /);
    const good = await readTree(path.join(root, 'dist'));
    await fs.rm(path.join(root, 'prompts'), { recursive: true });
    await fs.rm(path.join(root, 'agents'), { recursive: true });
    await watcher.waitFor(/is gone/);
    expect(await watcher.exitCode()).toBe(1);
    expect(await readTree(path.join(root, 'dist'))).toEqual(good);
  });
});

/**
 * What `watch` prints, as printed: every status line starts with the local
 * time (HH:MM:SS); a rebuild is preceded by the file that triggered it; a
 * rebuild that changed no prompt says so.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeTree } from '../helpers/tree.js';
import { WatchProcess } from '../watch/watch-process.js';

const TIME = '\\d\\d:\\d\\d:\\d\\d';

describe('prompt-build watch lines', () => {
  let root: string;
  let watcher: WatchProcess;

  beforeAll(async () => {
    root = await tempDir('pb-watch-lines-');
    await writeTree(root, {
      'prompts/sections/intro.md': 'You are a coding agent.\n',
      'prompts/sections/rules.md': 'Be brief.\n',
      'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro, rules]\n---\n',
    });
    watcher = new WatchProcess(root);
    await watcher.waitFor(/^watching /);
  });

  afterAll(async () => {
    await watcher?.stop();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('starts the first lines with the time', () => {
    expect(watcher.raw.find((l) => l.includes('watching '))).toMatch(new RegExp(`^${TIME} watching `));
    expect(watcher.raw.find((l) => l.includes('built 1 profile'))).toMatch(new RegExp(`^${TIME} built 1 profile, 0 agents into `));
  });

  it('names the file that triggered a rebuild, then says what changed', async () => {
    const from = watcher.raw.length;
    await fs.writeFile(path.join(root, 'prompts/sections/rules.md'), 'Be brief and kind.\n');
    await watcher.waitFor(/^rebuilt in/, from);
    const lines = watcher.raw.slice(from);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${TIME} prompts/sections/rules\\.md changed$`));
    expect(lines[1]).toMatch(new RegExp(`^${TIME} rebuilt in \\d+ ms · sections: rules · ⚠ cache-bust: default$`));
  });

  it('says so when a rebuild changed no prompt', async () => {
    const from = watcher.raw.length;
    await fs.writeFile(path.join(root, 'prompts/sections/rules.md'), 'Be brief and kind.\n');
    await watcher.waitFor(/^rebuilt in/, from);
    const lines = watcher.raw.slice(from);
    expect(lines[0]).toMatch(new RegExp(`^${TIME} prompts/sections/rules\\.md changed$`));
    expect(lines[1]).toMatch(new RegExp(`^${TIME} rebuilt in \\d+ ms · no prompt changed$`));
  });

  it('names an added file as added', async () => {
    const from = watcher.raw.length;
    await fs.writeFile(path.join(root, 'prompts/sections/extra.md'), 'Unused for now.\n');
    await watcher.waitFor(/^rebuilt in/, from);
    expect(watcher.raw.slice(from).find((l) => l.includes('extra.md')), watcher.raw.slice(from).join('\n')).toMatch(new RegExp(`^${TIME} prompts/sections/extra\\.md added$`));
  });
});

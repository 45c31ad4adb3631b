/**
 * Only regular files are read (docs/authoring.md#text-files-only): a FIFO, socket or device as a
 * source or an include target, directly or through a symlink, is named in a
 * diagnostic without being opened. Opening a FIFO blocks until a writer
 * comes, so a regression here shows as a test that never ends.
 */
import { execFileSync } from 'node:child_process';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectInstructionFiles, DEFAULT_LIMITS } from '../../compiler/index.js';
import { buildApart, buildThenBreak, errors, expectPreviousBundle, messageOf } from '../helpers/rebuild.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const GOOD = {
  'prompts/profiles/p.md': '---\nsections: [a]\n---\n',
  'prompts/sections/a.md': 'Intro\n',
};

const servers: net.Server[] = [];
const fifos: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  // A reader stuck opening one of our FIFOs (a regression) is let go: opening the write end wakes it.
  for (const fifo of fifos.splice(0)) await fs.open(fifo, fsSync.constants.O_WRONLY | fsSync.constants.O_NONBLOCK).then((h) => h.close(), () => {});
});

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
  fifos.push(file);
}

async function socketAt(file: string): Promise<void> {
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
}

/** Good build, break, second build in a child process: a hang there fails the test instead of stopping the run. */
function rebuild(files: Record<string, string>, breakIt: (root: string) => Promise<void>, options: { cacheDir?: string } = {}) {
  return buildThenBreak(files, breakIt, { ...options, apart: true });
}

/** Replaces the file at `root`/`rel` (section a unless told) with what `make` makes there. */
function replace(root: string, make: (file: string) => void | Promise<void>, rel = 'prompts/sections/a.md'): Promise<void> {
  return replaceWith(path.join(root, rel), make);
}

async function replaceWith(file: string, make: (file: string) => void | Promise<void>): Promise<void> {
  await fs.rm(file, { force: true });
  await fs.mkdir(path.dirname(file), { recursive: true });
  await make(file);
}

const canMakeDevices = await tempDir().then(async (dir) => {
  try {
    execFileSync('mknod', [path.join(dir, 'null'), 'c', '1', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

describe('special files as sources', () => {
  it('a FIFO source is refused by name, and the previous bundle stays', async () => {
    const run = await rebuild(GOOD, (root) => replace(root, mkfifo));
    expect(errors(run.result)).toEqual(['source/not-a-file prompts/sections/a.md:1:1']);
    expect(messageOf(run.result, 'source/not-a-file')).toBe('source is a FIFO (named pipe), not a regular file');
    await expectPreviousBundle(run);
  });

  it('a source that is a symlink to a FIFO in the root is refused', async () => {
    const run = await rebuild(GOOD, async (root) => {
      mkfifo(path.join(root, 'pipe'));
      await replace(root, (f) => fs.symlink('../../pipe', f));
    });
    expect(errors(run.result)).toEqual(['source/not-a-file prompts/sections/a.md:1:1']);
    await expectPreviousBundle(run);
  });

  it('a socket source, directly or through a symlink, is refused', async () => {
    const run = await rebuild(GOOD, async (root) => {
      await socketAt(path.join(root, 'prompts/sections/b.md'));
      await socketAt(path.join(root, 'sock'));
      await fs.symlink('../../sock', path.join(root, 'prompts/sections/c.md'));
    });
    expect(errors(run.result)).toEqual([
      'source/not-a-file prompts/sections/b.md:1:1',
      'source/not-a-file prompts/sections/c.md:1:1',
    ]);
    expect(messageOf(run.result, 'source/not-a-file')).toBe('source is a socket, not a regular file');
    await expectPreviousBundle(run);
  });

  it('an agent that is a FIFO is refused', async () => {
    const run = await rebuild(GOOD, (root) => replace(root, mkfifo, 'agents/x.md'));
    expect(errors(run.result)).toEqual(['source/not-a-file agents/x.md:1:1']);
    await expectPreviousBundle(run);
  });

  it('a symlink to a FIFO outside the root is refused as outside the root, before its type is looked at', async () => {
    const outside = await tempDir();
    mkfifo(path.join(outside, 'pipe'));
    const run = await rebuild(GOOD, (root) => replace(root, (f) => fs.symlink(path.join(outside, 'pipe'), f)));
    expect(errors(run.result)).toEqual(['source/outside-root prompts/sections/a.md:1:1']);
    await expectPreviousBundle(run);
  });

  it('a source replaced by a FIFO after a build whose stamp is kept does not hang the up-to-date check', async () => {
    const cacheDir = await tempDir('pb-cache-');
    const run = await rebuild(GOOD, (root) => replace(root, mkfifo), { cacheDir });
    expect(run.result.upToDate).toBe(false);
    expect(errors(run.result)).toEqual(['source/not-a-file prompts/sections/a.md:1:1']);
    await expectPreviousBundle(run);
  });

  it('a character device source is refused without being read (where this machine lets us mknod)', async () => {
    if (!canMakeDevices) {
      // No device can be made inside a temporary root here (not root, or no CAP_MKNOD): nothing to build.
      expect(canMakeDevices).toBe(false);
      return;
    }
    // /dev/null's numbers: reading it would give an empty section, built without a word.
    const run = await rebuild(GOOD, (root) => replace(root, (f) => void execFileSync('mknod', [f, 'c', '1', '3'])));
    expect(errors(run.result)).toEqual(['source/not-a-file prompts/sections/a.md:1:1']);
    expect(messageOf(run.result, 'source/not-a-file')).toBe('source is a character device, not a regular file');
    await expectPreviousBundle(run);
  });
});

describe('special files as include targets', () => {
  /** A good tree whose section includes `written`, a regular file at `rel` until the test replaces it. */
  const including = (written: string, rel: string) => ({
    ...GOOD,
    'prompts/sections/a.md': `Intro\nSee @${written} here\n`,
    [rel]: 'Hello\n',
  });

  it('a FIFO target is refused at the directive', async () => {
    const run = await rebuild(including('../../other/f.md', 'other/f.md'), (root) => replace(root, mkfifo, 'other/f.md'));
    expect(errors(run.result)).toEqual(['include/not-a-file prompts/sections/a.md:2:5']);
    expect(messageOf(run.result, 'include/not-a-file')).toBe("'../../other/f.md' is a FIFO (named pipe), not a regular file");
    await expectPreviousBundle(run);
  });

  it('a target that is a symlink to a FIFO is refused', async () => {
    const run = await rebuild(including('../../other/f.md', 'other/f.md'), async (root) => {
      mkfifo(path.join(root, 'other/pipe'));
      await replace(root, (f) => fs.symlink('pipe', f), 'other/f.md');
    });
    expect(errors(run.result)).toEqual(['include/not-a-file prompts/sections/a.md:2:5']);
    await expectPreviousBundle(run);
  });

  it('a FIFO fragment under prompts/ is reported where it is included', async () => {
    const run = await rebuild(including('../f.md', 'prompts/f.md'), (root) => replace(root, mkfifo, 'prompts/f.md'));
    expect(errors(run.result)).toEqual(['include/not-a-file prompts/sections/a.md:2:5']);
    await expectPreviousBundle(run);
  });

  it('a socket target, directly or through a symlink, is refused', async () => {
    const files = {
      ...GOOD,
      'prompts/sections/a.md': 'One @../../other/s.md\nTwo @../../other/l.md\n',
      'other/s.md': 'S\n',
      'other/l.md': 'L\n',
    };
    const run = await rebuild(files, async (root) => {
      await replace(root, socketAt, 'other/s.md');
      await replace(root, (f) => fs.symlink('s.md', f), 'other/l.md');
    });
    expect(errors(run.result)).toEqual([
      'include/not-a-file prompts/sections/a.md:1:5',
      'include/not-a-file prompts/sections/a.md:2:5',
    ]);
    expect(messageOf(run.result, 'include/not-a-file')).toBe("'../../other/s.md' is a socket, not a regular file");
    await expectPreviousBundle(run);
  });

  it('a directory target is named as one', async () => {
    const run = await rebuild(including('../../other/d.md', 'other/d.md'), async (root) => {
      await fs.rm(path.join(root, 'other/d.md'), { force: true });
      await fs.mkdir(path.join(root, 'other/d.md'), { recursive: true });
    });
    expect(messageOf(run.result, 'include/not-a-file')).toBe("'../../other/d.md' is a directory, not a regular file");
    await expectPreviousBundle(run);
  });

  it('a target that is a symlink to a FIFO outside the root is refused as outside the root', async () => {
    const outside = await tempDir();
    mkfifo(path.join(outside, 'pipe'));
    const run = await rebuild(including('../../other/f.md', 'other/f.md'), (root) =>
      replace(root, (f) => fs.symlink(path.join(outside, 'pipe'), f), 'other/f.md'),
    );
    expect(errors(run.result)).toEqual(['include/outside-root prompts/sections/a.md:2:5']);
    await expectPreviousBundle(run);
  });

  it('in instructions mode, a FIFO or socket include is skipped with a warning', async () => {
    const dir = await tempDir();
    await writeTree(dir, { 'CLAUDE.md': 'Top\n@./pipe.md\n@./sock.md\n' });
    mkfifo(path.join(dir, 'pipe.md'));
    await socketAt(path.join(dir, 'sock.md'));
    const seen = new Set<string>();
    const found = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen });
    expect(found.files.map((f) => path.basename(f.path))).toEqual(['CLAUDE.md']);
    expect(found.warnings.map((w) => `${w.rule} ${w.line}:${w.column} ${w.message}`)).toEqual([
      "include/not-a-file 2:1 './pipe.md' is a FIFO (named pipe), not a regular file",
      "include/not-a-file 3:1 './sock.md' is a socket, not a regular file",
    ]);
  });

  it('a FIFO entry point in instructions mode is skipped with a warning', async () => {
    const dir = await tempDir();
    mkfifo(path.join(dir, 'CLAUDE.md'));
    const found = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(found.files).toEqual([]);
    expect(found.warnings.map((w) => w.rule)).toEqual(['include/not-a-file']);
  });
});

describe('discovery', () => {
  it('names a FIFO among the sources instead of leaving it out in silence', async () => {
    const root = await tempDir();
    await writeTree(root, GOOD);
    mkfifo(path.join(root, 'prompts/sections/pipe.md'));
    const result = await buildApart({ root, cacheDir: null });
    expect(errors(result)).toEqual(['source/not-a-file prompts/sections/pipe.md:1:1']);
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });
});

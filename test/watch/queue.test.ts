/** The watch queue: debounce, one build at a time, the last change always built. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FileChange } from '../../compiler/pipeline/compiler.js';
import { RebuildQueue } from '../../compiler/watch/queue.js';

const DELAY = 20;
// Fake timers: time passes only when a test says so, however loaded the machine is.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A build that records what it was given and finishes when the test says so. */
function recorder() {
  const builds: FileChange[][] = [];
  const finish: Array<() => void> = [];
  let running = 0;
  let overlapped = false;
  const run = async (changes: FileChange[]) => {
    builds.push(changes);
    running++;
    if (running > 1) overlapped = true;
    await new Promise<void>((resolve) => finish.push(resolve));
    running--;
  };
  return { builds, finish, run, overlapped: () => overlapped };
}

describe('RebuildQueue', () => {
  it('turns a burst into one build, keeping the last event of each path', async () => {
    const r = recorder();
    const queue = new RebuildQueue(r.run, DELAY);
    queue.push({ path: '/p/a.md', kind: 'add' });
    queue.push({ path: '/p/b.md', kind: 'change' });
    queue.push({ path: '/p/a.md', kind: 'unlink' });
    await sleep(DELAY / 2);
    queue.push({ path: '/p/b.md', kind: 'change' });
    await sleep(DELAY * 3);
    expect(r.builds).toEqual([
      [
        { path: '/p/a.md', kind: 'unlink' },
        { path: '/p/b.md', kind: 'change' },
      ],
    ]);
    r.finish.shift()!();
    await queue.close();
  });

  it('waits for quiet: a save within the delay postpones the build', async () => {
    const r = recorder();
    const queue = new RebuildQueue(r.run, DELAY);
    for (let i = 0; i < 5; i++) {
      queue.push({ path: '/p/a.md', kind: 'change' });
      await sleep(DELAY / 3);
    }
    expect(r.builds).toHaveLength(0);
    await sleep(DELAY * 3);
    expect(r.builds).toHaveLength(1);
    r.finish.shift()!();
    await queue.close();
  });

  it('never runs two builds at once; changes during a build go to the next one', async () => {
    const r = recorder();
    const queue = new RebuildQueue(r.run, DELAY);
    queue.push({ path: '/p/a.md', kind: 'change' });
    await sleep(DELAY * 3);
    expect(r.builds).toHaveLength(1);
    queue.push({ path: '/p/b.md', kind: 'change' });
    queue.push({ path: '/p/c.md', kind: 'add' });
    await sleep(DELAY * 3);
    expect(r.builds).toHaveLength(1); // the first build is still running
    r.finish.shift()!();
    await sleep(DELAY);
    expect(r.builds).toEqual([
      [{ path: '/p/a.md', kind: 'change' }],
      [
        { path: '/p/b.md', kind: 'change' },
        { path: '/p/c.md', kind: 'add' },
      ],
    ]);
    r.finish.shift()!();
    await sleep(DELAY * 3);
    expect(r.builds).toHaveLength(2);
    expect(r.overlapped()).toBe(false);
    await queue.close();
  });

  it('close drops pending changes and waits for the running build', async () => {
    const r = recorder();
    const queue = new RebuildQueue(r.run, DELAY);
    queue.push({ path: '/p/a.md', kind: 'change' });
    await sleep(DELAY * 3);
    queue.push({ path: '/p/b.md', kind: 'change' });
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await sleep(DELAY);
    expect(closed).toBe(false);
    r.finish.shift()!();
    await closing;
    queue.push({ path: '/p/c.md', kind: 'change' });
    await sleep(DELAY * 3);
    expect(r.builds).toHaveLength(1);
  });
});

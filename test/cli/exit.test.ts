import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exitOnceWritten } from '../../compiler/cli/exit.js';

/** A stream that holds every write until `release` is called. */
function heldStream() {
  const held: Array<() => void> = [];
  const stream = new Writable({ write: (_chunk, _encoding, done) => void held.push(done) });
  return { stream: stream as unknown as NodeJS.WriteStream, release: () => held.splice(0).forEach((done) => done()) };
}

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('exitOnceWritten', () => {
  it('exits with the code only once everything written to each stream is out', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const out = heldStream();
    const err = heldStream();
    out.stream.write('the prompt');
    exitOnceWritten(3, [out.stream, err.stream]);
    expect(process.exitCode).toBe(3);
    err.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exit).not.toHaveBeenCalled(); // stdout still holds the prompt
    out.release();
    await new Promise((resolve) => setImmediate(resolve));
    out.release(); // the empty write queued behind it
    await new Promise((resolve) => setImmediate(resolve));
    expect(exit).toHaveBeenCalledTimes(1);
  });
});

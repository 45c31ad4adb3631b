/**
 * The watch queue: changes wait in `pending` until the file system has been
 * quiet for `delayMs` (an editor's save is often a burst — temp file, write,
 * rename), then go to one build. Never two builds at once: changes arriving
 * during a build wait for the next one, so the last change is always built.
 */
import type { FileChange } from '../pipeline/compiler.js';

export type RunBuild = (changes: FileChange[]) => Promise<void>;

export class RebuildQueue {
  /** Path → kind: a later event for a path replaces an earlier one, except that a file created and then written was added. */
  private pending = new Map<string, FileChange['kind']>();
  private timer: NodeJS.Timeout | null = null;
  private active: Promise<void> | null = null;
  private closed = false;

  /** `run` must not throw: the session reports its own errors. */
  constructor(
    private readonly run: RunBuild,
    private readonly delayMs = 50,
  ) {}

  push(change: FileChange): void {
    if (this.closed) return;
    this.pending.set(change.path, merged(this.pending.get(change.path), change.kind));
    this.schedule();
  }

  /** Stops taking changes, drops what is pending and waits for a running build to finish. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    await this.active;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.delayMs);
  }

  private async flush(): Promise<void> {
    // A running build calls flush again when it ends.
    if (this.active || this.pending.size === 0) return;
    const changes = [...this.pending].map(([path, kind]) => ({ path, kind }));
    this.pending.clear();
    this.active = this.run(changes);
    await this.active;
    this.active = null;
    if (this.pending.size > 0 && !this.timer && !this.closed) await this.flush();
  }
}

/** One file's events in one batch, as one: a file created and then written was added. */
function merged(before: FileChange['kind'] | undefined, now: FileChange['kind']): FileChange['kind'] {
  return before === 'add' && now === 'change' ? 'add' : now;
}

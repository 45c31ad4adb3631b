/**
 * What a conversation computes once and reuses: the git snapshot (SPEC §7 —
 * "computed once per session"). Held by an object the caller owns, never in
 * module state, so two sessions in one process (a server, a test run) never see
 * each other's snapshot, and dropping the session drops the memo.
 */
import type { SystemContext } from './git.js';

export interface ContextSession {
  /** The snapshot for `cwd`, computed on first use; concurrent callers share one computation. */
  systemContext(cwd: string, compute: () => Promise<SystemContext>): Promise<SystemContext>;
  /** Forget everything: callers clear on /clear, /compact and worktree changes (SPEC §6.2). */
  clear(): void;
}

export function createContextSession(): ContextSession {
  const snapshots = new Map<string, Promise<SystemContext>>();
  return {
    systemContext(cwd, compute) {
      let snapshot = snapshots.get(cwd);
      if (!snapshot) {
        snapshot = compute();
        snapshots.set(cwd, snapshot);
      }
      return snapshot;
    },
    clear() {
      snapshots.clear();
    },
  };
}

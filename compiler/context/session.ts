/**
 * What a conversation computes once and reuses: the git snapshot (docs/context.md#sessions —
 * "computed once per session") and the embedded bundle that words the
 * context when the caller's has no wording. Held by an object the caller
 * owns, never in module state, so two sessions in one process (a server, a
 * test run) never see each other's snapshot, and dropping the session drops
 * the memo.
 */
import type { Bundle } from '../runtime/index.js';
import type { SystemContext } from './git.js';

export interface ContextSession {
  /** The snapshot for `cwd`, computed on first use; concurrent callers share one computation. */
  systemContext(cwd: string, compute: () => Promise<SystemContext>): Promise<SystemContext>;
  /** The embedded bundle, loaded on first use. */
  embeddedBundle(load: () => Promise<Bundle>): Promise<Bundle>;
  /** Forget the snapshots: callers clear on /clear, /compact and worktree changes (docs/context.md#sessions). */
  clear(): void;
}

export function createContextSession(): ContextSession {
  const snapshots = new Map<string, Promise<SystemContext>>();
  let embedded: Promise<Bundle> | null = null;
  return {
    systemContext(cwd, compute) {
      let snapshot = snapshots.get(cwd);
      if (!snapshot) {
        snapshot = compute();
        snapshots.set(cwd, snapshot);
      }
      return snapshot;
    },
    embeddedBundle(load) {
      embedded ??= load();
      return embedded;
    },
    clear() {
      snapshots.clear();
    },
  };
}

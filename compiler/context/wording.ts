/**
 * Which bundle words the context: the caller's, when its prompt set has the
 * `context` profile, else the embedded set's — prompt-build's own `dist/`,
 * shipped with the package — so a project with a prompt set of its own gets
 * the embedded wording until it writes its own.
 */
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../runtime/bundle.js';
import { hasContextWording } from '../runtime/context-wording.js';
import { loadBundle } from '../runtime/load-bundle.js';
import type { ContextSession } from './session.js';

/** The package's `dist/`: from `lib/context/` (and from `compiler/context/` in the tests) two folders up. */
export const EMBEDDED_BUNDLE_DIR = fileURLToPath(new URL('../../dist/', import.meta.url));

export function wordingFor(bundle: Bundle | undefined, session?: ContextSession): Promise<Bundle> {
  if (bundle && hasContextWording(bundle)) return Promise.resolve(bundle);
  return session ? session.embeddedBundle(() => loadBundle(EMBEDDED_BUNDLE_DIR)) : loadBundle(EMBEDDED_BUNDLE_DIR);
}

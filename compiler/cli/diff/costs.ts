/** Warm-cache cost of 1,000 requests of a profile on each side of a diff, per configured model. */
import type { Manifest } from '../../runtime/manifest.js';
import { own } from '../../bundle/bundle-diff.js';
import { requestCost, type CostFacts } from '../../report/cost.js';

/** null where the profile does not exist or the model has no price facts. */
export function warmCostPer1000(manifest: Manifest, profile: string, facts: CostFacts): number | null {
  const p = own(manifest.profiles, profile);
  if (!p) return null;
  const dynamic = p.sections.reduce((n, s) => n + (s.kind === 'dynamic' ? s.tokens : 0), 0);
  const cost = requestCost(p.staticTokens, dynamic, facts);
  return cost === null ? null : cost.warm * 1000;
}

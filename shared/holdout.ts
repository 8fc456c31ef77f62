import type { HoldoutDocument } from './config/holdout';

/**
 * What the holdout covers (docs/experiments.md, "What it covers"), apart from its schema
 * (shared/config/holdout.ts), so the console reads it without the validator's code.
 */

/**
 * Whether the holdout covers what came into effect at `since` (an experiment's start, a route's
 * first publish, the split's phase): while it took new ones, at or after its start and before its
 * analysis period. Nothing is covered once it ended, nor what has no stamp (it came before any
 * holdout). The worker's draw (worker/experiments/holdout/holdout.ts) and the console's Holdout card
 * read it alike.
 */
export function coversSince(holdout: HoldoutDocument, since: string | undefined): boolean {
  if (holdout.status === 'ended' || since === undefined) return false;
  const at = Date.parse(since);
  if (at < Date.parse(holdout.startedAt)) return false;
  return holdout.analysisFrom === undefined || at < Date.parse(holdout.analysisFrom);
}

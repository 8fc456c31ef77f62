import type { FunnelEventName } from '../../shared/analytics/catalogue';
import { outcomeStatements } from './experiment-statements';
import { type ExperimentStores, toVisitorsStores } from './experiment-stores';

/**
 * The funnel events that mark an exposed visitor's steps (SPEC.md §4 Analytics events), and the
 * flag each sets on the visitor's row in `exposures`: the phone lookup started
 * (PhoneForm), the sign-up (a lead), a checkout or paywall shown. A purchase is not among them:
 * only the server's verified purchases set `purchased` (worker/experiments/experiment-purchase.ts).
 */
export const OUTCOME_FLAGS = {
  onboarding_start: 'reached_lookup',
  lead: 'signed_up',
  checkout_screen_load: 'reached_checkout',
} as const satisfies Partial<Record<FunnelEventName, string>>;

type OutcomeEvent = keyof typeof OUTCOME_FLAGS;

export function isOutcomeEvent(eventType: string): eventType is OutcomeEvent {
  return Object.hasOwn(OUTCOME_FLAGS, eventType);
}

export interface Outcome {
  visitorId: string;
  event: OutcomeEvent;
}

/**
 * Sets each outcome's flag on its visitor's row, if the visitor was exposed; a flag already set
 * is left alone, so outcomes recorded twice (a message the queue delivers again) change nothing.
 * One request per shard the visitors live in, and EVENTS_DB too while it holds visitors exposed
 * before the shards (experiment-stores.ts).
 */
export async function recordOutcomes(
  stores: ExperimentStores,
  outcomes: readonly Outcome[],
): Promise<void> {
  await toVisitorsStores(
    stores,
    outcomes,
    (shard, group) => shard.recordOutcomes(group),
    outcomeStatements,
  );
}

import { describeError, logError, logLine } from '../../../shared/log';
import { shardOfVisitor } from '../assignment/assign';
import { type ExperimentStores, shardStub } from './experiment-stores';
import type { SaveOfferEvent, SaveOfferOutcome } from './save-offer-statements';

/** The log line of each outcome, written when it counts (docs/experiments.md). */
const OUTCOME_EVENTS: Record<SaveOfferOutcome, string> = {
  shown: 'save_offer_shown',
  chose_keep: 'save_offer_chose_keep',
  took_action: 'save_offer_took_action',
  cancelled: 'save_offer_cancelled',
};

/**
 * Counts what a subscriber did with a save offer test's offer (docs/experiments.md, "Testing the
 * save offer") in the shard of their subscription id, after the page's answer, and logs it when
 * it counted: once per subscription and outcome, as the results count it, however often the page
 * is reloaded. A shard that fails loses this one count and says so (`save_offer_count_failed`);
 * the page never fails for it.
 */
export async function recordSaveOffer(
  stores: ExperimentStores,
  event: SaveOfferEvent,
  requestId?: string,
): Promise<void> {
  try {
    const shard = shardStub(stores, shardOfVisitor(event.subscriptionId));
    const [counted] = await shard.recordSaveOffers([event]);
    if (!counted) return;
    const { experiment, phase, variant, outcome } = event;
    logLine({
      ...(requestId === undefined ? {} : { id: requestId }),
      event: OUTCOME_EVENTS[outcome],
      experiment,
      phase,
      variant,
    });
  } catch (error) {
    logError('save_offer_count_failed', {
      ...(requestId === undefined ? {} : { id: requestId }),
      experiment: event.experiment,
      outcome: event.outcome,
      detail: describeError(error),
    });
  }
}

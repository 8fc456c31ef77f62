import { describeError, logError } from '../../../shared/log';
import { shardOfVisitor } from '../assignment/visitor-shard';
import { type ExperimentStores, shardStub } from './experiment-stores';
import type { SaveOfferEvent } from './save-offer-statements';

/**
 * Counts what a subscriber did with a save offer test's offer (docs/experiments.md, "Testing the
 * save offer") in the shard of their subscription id, after the page's answer. A shard that
 * fails loses this one count and says so (`save_offer_count_failed`); the page never fails for it.
 */
export async function recordSaveOffer(
  stores: ExperimentStores,
  event: SaveOfferEvent,
  requestId?: string,
): Promise<void> {
  try {
    await shardStub(stores, shardOfVisitor(event.subscriptionId)).recordSaveOffers([event]);
  } catch (error) {
    logError('save_offer_count_failed', {
      ...(requestId === undefined ? {} : { id: requestId }),
      experiment: event.experiment,
      outcome: event.outcome,
      detail: describeError(error),
    });
  }
}

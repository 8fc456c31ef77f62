import { minorDigits } from '../../../shared/minor-units';
import { isPlanId, planById } from '../../../shared/plans/catalogue';
import type { QueuedEvent } from '../../collector/queued-event';
import { type ExperimentStores, toVisitorsStores } from './experiment-stores';
import { stepRouteOf } from './route-steps';
import { type ExperimentPurchase, purchaseStatements } from './split-statements';

/** An amount in a currency's minor units (cents for USD and EUR, yen for JPY). */
interface MinorAmount {
  amountMinor: number;
  currency: string;
}

/**
 * The charge's amount in its currency's minor units, or null when the product API named no
 * amount or no currency, or a code Intl does not know. Sums of integers stay exact where sums of
 * 6.99s would not.
 */
export function minorAmountOf(amount: number | null, currency: string | null): MinorAmount | null {
  if (amount === null || currency === null) return null;
  const digits = minorDigits(currency);
  if (digits === null) return null;
  return { amountMinor: Math.round(amount * 10 ** digits), currency };
}

/**
 * What a server-verified purchase message (isVerifiedPurchase: queued by
 * worker/purchases/record-purchase.ts, and claimed for its subscription by the consumer,
 * worker/collector/consumer/purchase-claims.ts, so another poll's message never gets here) counts
 * in the split test: its subscription, buyer, amount and time, from the
 * event worker/purchases/purchase-event.ts made of the product API's answer, and whether its plan
 * is an upsell (a plan the catalogue does not know is read as main, as the event's type is made),
 * and the buyer's route for the steps by route. Null when it names
 * no subscription: nothing to count it once by.
 */
export function experimentPurchaseOf(message: QueuedEvent): ExperimentPurchase | null {
  const { event } = message;
  const properties = event.event_properties;
  const subscriptionId = properties.sub_id;
  if (typeof subscriptionId !== 'string' || subscriptionId === '') return null;
  const price = typeof properties.price === 'number' ? properties.price : null;
  const currency = typeof properties.currency === 'string' ? properties.currency : null;
  const minor = minorAmountOf(price, currency);
  const plan = properties.plan;
  const role = typeof plan === 'string' && isPlanId(plan) ? planById(plan).role : 'main';
  const route = stepRouteOf(properties.route, event.time, message.context.received_at);
  return {
    subscriptionId,
    visitorId: event.device_id.toLowerCase(),
    amountMinor: minor?.amountMinor ?? null,
    currency: minor?.currency ?? null,
    upsell: role !== 'main',
    at: event.time,
    ...(route !== undefined ? { route } : {}),
  };
}

/**
 * Counts each purchase in the results of the visitor who bought it, if that visitor was exposed,
 * once per subscription id (purchaseStatements): one request per shard the buyers live in, and
 * EVENTS_DB too while it holds visitors exposed before the shards (experiment-stores.ts).
 */
export async function recordPurchases(
  stores: ExperimentStores,
  purchases: readonly ExperimentPurchase[],
): Promise<void> {
  await toVisitorsStores(
    stores,
    purchases,
    (shard, group) => shard.recordPurchases(group),
    purchaseStatements,
  );
}

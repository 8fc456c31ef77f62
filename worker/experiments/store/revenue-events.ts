import type { LifecycleEventType } from '../../../shared/api/lifecycle';
import type { Statement } from './split-statements';

/**
 * A lifecycle event as the experiments' results count it (worker/lifecycle/ passes them on):
 * revenue after the first payment, in the buyer's visitor shard (assign.ts shardOfVisitor), net of
 * refunds and chargebacks.
 */
export interface RevenueEvent {
  /** The product API's event id: the shard counts each once, as the ledger does. */
  eventId: string;
  subscriptionId: string;
  /** The buyer, as the verified purchase named them (the ledger's subscription → visitor). */
  visitorId: string;
  kind: LifecycleEventType;
  /**
   * In the currency's minor units, signed: a renewal adds, a refund or a chargeback takes away
   * (negative), a cancellation moves nothing (0).
   */
  amountMinor: number;
  /** ISO 4217; null on a cancellation. */
  currency: string | null;
  /** When it happened, epoch ms. */
  at: number;
  /**
   * On a renewal: it paid a renewal that had failed (the ledger saw a `renewal_failed` of the
   * subscription not closed since, worker/lifecycle/ledger.ts), so its amount is recovered revenue.
   */
  recovered?: boolean;
}

/**
 * An event counts in an experiment when its subscription was bought after the buyer's exposure
 * to it (the purchase is then one of the experiment's, xp_purchases). Revenue follows what the
 * exposure could change: a main plan bought before an upsell test opened is not the upsell
 * test's, nor are its renewals and refunds, which are alike in every arm and would drown the
 * upsell's difference in their variance.
 */
const boughtAfterExposure = (subscriptionParam: number) => `EXISTS (
  SELECT 1 FROM xp_purchases AS bought
  WHERE bought.visitor_id = xp_exposures.visitor_id
    AND bought.experiment = xp_exposures.experiment
    AND bought.subscription_id = ?${subscriptionParam}
)`;

/**
 * The event's id taken, if its subscription was bought after an exposure of its buyer to any
 * experiment: 1 row written when it counts now, 0 when it was counted before or concerns no
 * such purchase (then the event changes nothing, and its id costs no row).
 */
export function revenueEventClaim(event: RevenueEvent): Statement {
  return {
    sql: `INSERT OR IGNORE INTO xp_revenue_events (event_id, at)
          SELECT ?1, ?2 WHERE EXISTS (
            SELECT 1 FROM xp_purchases WHERE visitor_id = ?3 AND subscription_id = ?4
          )`,
    params: [event.eventId, event.at, event.visitorId, event.subscriptionId],
  };
}

/**
 * What a claimed event changes in every experiment whose purchase its subscription is (above):
 * the net revenue in its currency (its trigger moves the net histograms), and `refunded` on a
 * refund or a chargeback.
 */
export function revenueEventStatements(event: RevenueEvent): Statement[] {
  const money: Statement[] =
    event.amountMinor !== 0 && event.currency !== null
      ? [
          {
            sql: `INSERT INTO xp_money
                    (visitor_id, experiment, currency, phase, variant, day, paid_minor, net_minor)
                  SELECT visitor_id, experiment, ?2, phase, variant,
                         date(exposed_at / 1000, 'unixepoch'), 0, ?3
                  FROM xp_exposures
                  WHERE visitor_id = ?1 AND exposed_at <= ?4 AND ${boughtAfterExposure(5)}
                  ON CONFLICT (visitor_id, experiment, currency) DO UPDATE SET
                    net_minor = net_minor + excluded.net_minor`,
            params: [
              event.visitorId,
              event.currency,
              event.amountMinor,
              event.at,
              event.subscriptionId,
            ],
          },
        ]
      : [];
  const refunded: Statement[] =
    event.kind === 'refund' || event.kind === 'chargeback'
      ? [
          {
            sql: `UPDATE xp_exposures SET refunded = 1
                  WHERE visitor_id = ?1 AND exposed_at <= ?2 AND refunded = 0
                    AND ${boughtAfterExposure(3)}`,
            params: [event.visitorId, event.at, event.subscriptionId],
          },
        ]
      : [];
  return [...money, ...refunded];
}

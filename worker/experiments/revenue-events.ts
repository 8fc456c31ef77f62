import type { LifecycleEventType } from '../../shared/api/lifecycle';
import type { Statement } from './experiment-statements';

/**
 * A lifecycle event as the experiments' results count it (worker/lifecycle/ passes them on):
 * revenue after the first payment, in the buyer's visitor shard (visitor-shard.ts), net of
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
}

/**
 * The event's id taken, if its buyer was exposed to any experiment at or before it: 1 row
 * written when it counts now, 0 when it was counted before or concerns no exposure (then the
 * event changes nothing, and its id costs no row).
 */
export function revenueEventClaim(event: RevenueEvent): Statement {
  return {
    sql: `INSERT OR IGNORE INTO xp_revenue_events (event_id, at)
          SELECT ?1, ?2 WHERE EXISTS (
            SELECT 1 FROM xp_exposures WHERE visitor_id = ?3 AND exposed_at <= ?2
          )`,
    params: [event.eventId, event.at, event.visitorId],
  };
}

/**
 * What a claimed event changes in every experiment its buyer was exposed to at or before it:
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
                  FROM xp_exposures WHERE visitor_id = ?1 AND exposed_at <= ?4
                  ON CONFLICT (visitor_id, experiment, currency) DO UPDATE SET
                    net_minor = net_minor + excluded.net_minor`,
            params: [event.visitorId, event.currency, event.amountMinor, event.at],
          },
        ]
      : [];
  const refunded: Statement[] =
    event.kind === 'refund' || event.kind === 'chargeback'
      ? [
          {
            sql: `UPDATE xp_exposures SET refunded = 1
                  WHERE visitor_id = ?1 AND exposed_at <= ?2 AND refunded = 0`,
            params: [event.visitorId, event.at],
          },
        ]
      : [];
  return [...money, ...refunded];
}

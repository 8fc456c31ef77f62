import { isVerifiedPurchase, type QueuedEvent } from '../queued-event';

/**
 * The consumer's claim of each server-verified purchase (EVENTS_DB verified_purchases, keyed by
 * subscription id): the first insert id met for a subscription is the purchase; a message under
 * another id (a second poll of the same charge queued its own, worker/purchases/record-purchase.ts)
 * counts nothing anywhere. The same id met again (a retry, a redrive, the sweep's copy) is the
 * purchase still, and each destination drops the repeat by its id as for any event. A claim that
 * meets its own row kept for the sweep (worker/purchases/purchase-outbox.ts) confirms it queued,
 * so the sweep does not queue it again.
 *
 * One EVENTS_DB statement per queue batch carrying a purchase (it rewrites a known row in place,
 * a write only for a repeat or a retry); none for a batch without one, the usual case.
 */
export interface PurchaseClaims {
  /** Insert ids of purchases another message already stands for: acked, sent nowhere. */
  repeats: Set<string>;
}

interface ClaimRow {
  subscription_id: string;
  insert_id: string;
}

/** The subscription a verified purchase is for, or null (not one, or it names none). */
function subscriptionOf(message: QueuedEvent): string | null {
  if (!isVerifiedPurchase(message)) return null;
  const subscriptionId = message.event.event_properties.sub_id;
  return typeof subscriptionId === 'string' && subscriptionId !== '' ? subscriptionId : null;
}

/**
 * Claims the purchases among `messages` at `at` (epoch ms), first come first kept (in the batch,
 * in its order). Throws when EVENTS_DB does: the caller retries those messages, later.
 */
export async function claimPurchases(
  db: D1Database,
  messages: readonly QueuedEvent[],
  at: number,
): Promise<PurchaseClaims> {
  const claims = messages.flatMap((message) => {
    const subscriptionId = subscriptionOf(message);
    return subscriptionId === null ? [] : [[subscriptionId, message.event.insert_id] as const];
  });
  if (claims.length === 0) return { repeats: new Set() };
  // One statement: a new subscription is inserted; a known one is left as it was, but for the
  // sweep's copy of its own message (confirmed queued), and RETURNING names whose it is.
  const { results } = await db
    .prepare(
      `INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?2
       FROM json_each(?1) WHERE true
       ON CONFLICT (subscription_id) DO UPDATE SET
         message = iif(insert_id = excluded.insert_id, NULL, message),
         lease_until = iif(insert_id = excluded.insert_id, NULL, lease_until)
       RETURNING subscription_id, insert_id`,
    )
    .bind(JSON.stringify(claims), at)
    .all<ClaimRow>();
  const owner = new Map(results.map((row) => [row.subscription_id, row.insert_id]));
  return {
    repeats: new Set(
      claims
        .filter(([subscriptionId, insertId]) => {
          const first = owner.get(subscriptionId);
          return first !== undefined && first !== insertId;
        })
        .map(([, insertId]) => insertId),
    ),
  };
}

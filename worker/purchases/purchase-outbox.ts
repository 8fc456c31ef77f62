import { describeError, logError, logLine } from '../../shared/log';
import type { QueuedEvent, QueuedMessage } from '../collector/queued-event';

/**
 * verified_purchases as the fallback outbox (EVENTS_DB, migration 0008). A verified purchase is
 * kept in the events queue before the visitor hears of it (./record-purchase.ts); only when the
 * queue refuses the send is its message written here instead, due at once, and the scheduled
 * sweep queues it. The row also claims the subscription for that message's insert id, as the
 * consumer's claim does (worker/collector/consumer/purchase-claims.ts): whichever message a poll
 * queued under another id counts nothing, so the purchase still reaches each destination once.
 * A message the sweep queues twice (it died before its mark) has one insert id, which every
 * destination drops as a repeat.
 *
 * D1 statements per purchase: none while the queue takes it; one when the queue refuses it. The
 * sweep costs one statement a cron run, on an index of the unqueued rows only.
 */

/** How long the sweep's own lease on a row lasts: far over a queue send, far under a run's 15 minutes. */
export const PURCHASE_LEASE_MS = 60_000;

/** Unconfirmed claims queued per sweep round, and rounds per run: 5,000 purchases a run. */
const SWEEP_ROWS = 50;
const SWEEP_ROUNDS = 100;

/**
 * Keeps a purchase the queue refused for the sweep: its message, due now, claiming the
 * subscription for its insert id. Nothing changes when the subscription is claimed already (an
 * earlier poll's message reached the consumer, or was kept here): that one is the purchase.
 */
export async function keepForTheSweep(
  db: D1Database,
  subscriptionId: string,
  message: QueuedEvent,
  at: number,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at, message, lease_until)
       VALUES (?1, ?2, ?3, ?4, ?3)
       ON CONFLICT (subscription_id) DO NOTHING`,
    )
    .bind(subscriptionId, message.event.insert_id, at, JSON.stringify(message))
    .run();
}

/**
 * Confirms rows as queued: their message is dropped (it holds the buyer's address and hashed
 * email, needed no longer) and they leave the sweep's index.
 */
async function markQueued(db: D1Database, subscriptionIds: readonly string[]) {
  await db
    .prepare(
      `UPDATE verified_purchases SET message = NULL, lease_until = NULL
       WHERE subscription_id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(subscriptionIds))
    .run();
}

interface UnqueuedRow {
  subscription_id: string;
  message: string;
}

/**
 * Queues every kept purchase that is due (kept by a poll whose send the queue refused, or leased
 * by a sweep that died before its mark), a bounded number per round: leases them (so a sweep at
 * the same moment does not), sends their messages in one batch, confirms them.
 * Answers how many it queued. A failure leaves the rest to run out their new lease for the next run.
 */
async function sweepUnqueuedPurchases(
  db: D1Database,
  queue: Queue<QueuedMessage>,
  now: number,
): Promise<number> {
  const lease = db.prepare(
    `UPDATE verified_purchases SET lease_until = ?1
     WHERE subscription_id IN (
       SELECT subscription_id FROM verified_purchases
       WHERE lease_until IS NOT NULL AND lease_until <= ?2 ORDER BY lease_until LIMIT ?3)
     AND lease_until IS NOT NULL AND lease_until <= ?2
     RETURNING subscription_id, message`,
  );
  let queued = 0;
  for (let round = 0; round < SWEEP_ROUNDS; round++) {
    const { results } = await lease
      .bind(now + PURCHASE_LEASE_MS, now, SWEEP_ROWS)
      .all<UnqueuedRow>();
    if (results.length === 0) break;
    await queue.sendBatch(
      results.map((row) => ({ body: JSON.parse(row.message) as QueuedEvent, contentType: 'json' })),
    );
    await markQueued(
      db,
      results.map((row) => row.subscription_id),
    );
    queued += results.length;
    if (results.length < SWEEP_ROWS) break;
  }
  return queued;
}

/** The cron's handler (worker/scheduled.ts): sweeps, and logs what it queued again or the failure. */
export async function runPurchaseSweep(
  db: D1Database,
  queue: Queue<QueuedMessage>,
  now: number,
): Promise<void> {
  try {
    const requeued = await sweepUnqueuedPurchases(db, queue, now);
    if (requeued > 0) logLine({ task: 'purchase_sweep', requeued });
  } catch (error) {
    logError('purchase_sweep_failed', { detail: describeError(error) });
  }
}

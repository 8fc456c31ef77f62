import { describeError, logError, logLine } from '../../shared/log';
import type { QueuedEvent, QueuedMessage } from '../collector/queued-event';

/**
 * verified_purchases as an outbox (EVENTS_DB, migration 0008): a purchase's claim carries the
 * queue message it stands for and a lease until the message is known to be queued. Whatever dies
 * between the claim and that confirmation (the isolate, the queue's answer, the mark), the lease
 * runs out and the next poll of the same charge, or the scheduled sweep, queues the very same
 * message again: the same insert id, which every destination drops as a repeat (Amplitude by
 * insert_id, Meta and TikTok by event_id, the experiment by subscription id). So a purchase
 * reaches each destination once, and is never lost.
 *
 * D1 statements per purchase: the claim and the mark, one more than a bare claim. The sweep adds
 * one statement a cron run, on an index of the unconfirmed rows only.
 */

/**
 * How long a claim's request has to queue its message before another may: far over a queue
 * send's few milliseconds, far under the scheduled sweep's 15 minutes.
 */
export const PURCHASE_LEASE_MS = 60_000;

/** Unconfirmed claims queued per sweep round, and rounds per run: 5,000 purchases a run. */
const SWEEP_ROWS = 50;
const SWEEP_ROUNDS = 100;

/**
 * Claims `subscriptionId` for `message`, or takes over a claim whose lease ran out unconfirmed:
 * the message to queue now (the stored one on a take-over, with the first try's insert id), or
 * null when the purchase is queued already or another request holds a live lease.
 */
export async function claimPurchase(
  db: D1Database,
  subscriptionId: string,
  message: QueuedEvent,
  at: number,
): Promise<QueuedEvent | null> {
  const row = await db
    .prepare(
      `INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at, message, lease_until)
       VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (subscription_id) DO UPDATE SET lease_until = excluded.lease_until
         WHERE verified_purchases.lease_until IS NOT NULL AND verified_purchases.lease_until <= ?3
       RETURNING message`,
    )
    .bind(
      subscriptionId,
      message.event.insert_id,
      at,
      JSON.stringify(message),
      at + PURCHASE_LEASE_MS,
    )
    .first<{ message: string | null }>();
  return row?.message ? (JSON.parse(row.message) as QueuedEvent) : null;
}

/**
 * Confirms claims as queued: their message is dropped (it holds the buyer's address and hashed
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

/**
 * Queues a claimed purchase's message, then confirms the claim. A send that fails gives the lease
 * up at once: this request knows its message may not be queued, so the next poll queues it again
 * rather than a minute later (a send that failed after the queue took it is then queued twice,
 * with its one insert id, which every destination keeps once). When giving up fails too, the
 * lease runs out as it would for a request that died.
 */
export async function queueClaimed(
  db: D1Database,
  queue: Queue<QueuedMessage>,
  subscriptionId: string,
  message: QueuedEvent,
): Promise<void> {
  try {
    await queue.send(message, { contentType: 'json' });
  } catch (error) {
    await releaseLease(db, subscriptionId).catch(() => undefined);
    throw error;
  }
  await markQueued(db, [subscriptionId]);
}

/** An unconfirmed claim's lease, ended now: the next poll or sweep takes the claim over. */
async function releaseLease(db: D1Database, subscriptionId: string): Promise<void> {
  await db
    .prepare(
      'UPDATE verified_purchases SET lease_until = 0 WHERE subscription_id = ?1 AND lease_until IS NOT NULL',
    )
    .bind(subscriptionId)
    .run();
}

interface UnqueuedRow {
  subscription_id: string;
  message: string;
}

/**
 * Queues again every claim whose lease ran out unconfirmed, a bounded number per round: leases
 * them (so a poll at the same moment does not), sends their messages in one batch, confirms them.
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

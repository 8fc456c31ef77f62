import { describeError, logError, logLine } from '../../shared/log';
import type { QueuedMessage } from './queued-event';

/**
 * Sends the dead letters an operator asked for (`npm run events -- dead-letters redrive`, which
 * sets dead_letters.redrive_requested_at) back to the events queue, and marks them redriven.
 * Run by every cron (worker/scheduled.ts) and, under `npm start`, by the development route the
 * command calls (worker/dev/redrive-route.ts). A row is sent until it is marked: when the worker
 * dies between the two, the next run sends it again, and the destinations drop the repeat by
 * insert_id or event_id. A row once marked is never sent again, however often it is asked for.
 *
 * A row goes only to the destinations it never reached (dead_letters.destinations, which the
 * dead letter consumer wrote down), or to those the operator named (redrive_destinations): the
 * message carries them as `only`, and the consumer sends it nowhere else, so a redrive after an
 * Amplitude outage adds nothing to the archive, Meta or TikTok. A row kept before those were
 * written down, or an unreadable one, goes everywhere, as it always did.
 */

/** Rows read per round, and rounds per run: 2,000 messages a run. */
const ROWS_PER_ROUND = 100;
const ROUNDS = 20;
/** What one sendBatch may carry: 100 messages and 256 KB (Cloudflare Queues' limits). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 250_000;

interface RedriveRow {
  seq: number;
  body: string;
  /** The destinations it is for, JSON; null: every one. */
  only: string | null;
}

/** The message to queue again: the stored one, for the destinations the row names. */
function redriven(row: RedriveRow): QueuedMessage {
  const message = JSON.parse(row.body) as QueuedMessage;
  return row.only === null ? message : { ...message, only: JSON.parse(row.only) };
}

/** Consecutive runs of rows that fit one sendBatch each. */
function sendBatches(rows: readonly RedriveRow[]): RedriveRow[][] {
  const batches: RedriveRow[][] = [];
  let current: RedriveRow[] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = new TextEncoder().encode(row.body).length;
    if (current.length > 0 && (current.length >= BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(row);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Sends every requested, unsent dead letter (at most a run's worth); answers how many. */
export async function redriveDeadLetters(
  db: D1Database,
  queue: Queue<QueuedMessage>,
  now: number,
): Promise<number> {
  // The partial index dead_letters_to_redrive holds exactly these rows.
  const pending = db.prepare(
    `SELECT seq, body, coalesce(redrive_destinations, destinations) AS only FROM dead_letters
     WHERE redrive_requested_at IS NOT NULL AND redriven_at IS NULL ORDER BY seq LIMIT ?1`,
  );
  const mark = db.prepare(
    'UPDATE dead_letters SET redriven_at = ?1 WHERE seq IN (SELECT value FROM json_each(?2))',
  );
  let sent = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { results } = await pending.bind(ROWS_PER_ROUND).all<RedriveRow>();
    for (const batch of sendBatches(results)) {
      await queue.sendBatch(batch.map((row) => ({ body: redriven(row), contentType: 'json' })));
      await mark.bind(now, JSON.stringify(batch.map((row) => row.seq))).run();
      sent += batch.length;
    }
    if (results.length < ROWS_PER_ROUND) break;
  }
  return sent;
}

/** The cron's handler: redrives, and logs what it sent or the failure. */
export async function runRedrive(
  db: D1Database,
  queue: Queue<QueuedMessage>,
  now: number,
): Promise<void> {
  try {
    const redriven = await redriveDeadLetters(db, queue, now);
    if (redriven > 0) logLine({ task: 'dead_letter_redrive', redriven });
  } catch (error) {
    logError('dead_letter_redrive_failed', { detail: describeError(error) });
  }
}

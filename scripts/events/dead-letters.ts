import type { SqlRunner } from '../../worker/config/versions';
import { eventTime } from './format';

/**
 * `npm run events -- dead-letters list | show | redrive`: reads EVENTS_DB dead_letters and asks
 * for rows to be sent again, through a SqlRunner (local D1 through wrangler's platform proxy, or
 * the deployed database through `wrangler d1 execute --remote`), so both run the same
 * statements; they are written with `?` placeholders, which both take. The sending itself is the
 * worker's (worker/collector/redrive.ts): only it has the queue.
 */

export interface DeadLetterRow {
  seq: number;
  insert_id: string | null;
  failed_at: number;
  redrive_requested_at: number | null;
  redriven_at: number | null;
  events: number;
  event_type: string | null;
  bytes: number;
}

// A v2 message holds `events`, a v1 message one `event`; an unreadable one may hold neither.
const SUMMARY = `seq, insert_id, failed_at, redrive_requested_at, redriven_at,
  coalesce(json_array_length(body, '$.events'), CASE WHEN json_type(body, '$.event') IS NULL THEN 0 ELSE 1 END) AS events,
  coalesce(json_extract(body, '$.events[0].event_type'), json_extract(body, '$.event.event_type')) AS event_type,
  length(body) AS bytes`;

/** The last `count` rows, oldest first. */
export async function latestDeadLetters(sql: SqlRunner, count: number): Promise<DeadLetterRow[]> {
  const rows = await sql.all<DeadLetterRow>(
    `SELECT ${SUMMARY} FROM dead_letters ORDER BY seq DESC LIMIT ?`,
    [count],
  );
  return rows.reverse();
}

export async function deadLetter(
  sql: SqlRunner,
  id: number,
): Promise<(DeadLetterRow & { body: string }) | null> {
  const [row] = await sql.all<DeadLetterRow & { body: string }>(
    `SELECT ${SUMMARY}, body FROM dead_letters WHERE seq = ?`,
    [id],
  );
  return row ?? null;
}

/**
 * Asks for the rows (one, or all that failed at or after `since`) to be sent again: only rows
 * never asked for before, so a redrive run twice sends a row once. Answers how many it asked
 * for, and how many are waiting for the worker to send them, these included.
 */
export async function requestRedrive(
  sql: SqlRunner,
  selection: { id: number | null; since: number | null },
  now: number,
): Promise<{ requested: number; waiting: number }> {
  const { changes } = await sql.run(
    `UPDATE dead_letters SET redrive_requested_at = ?
     WHERE redrive_requested_at IS NULL AND failed_at >= ? AND (? IS NULL OR seq = ?)`,
    [now, selection.since ?? 0, selection.id, selection.id],
  );
  const [waiting] = await sql.all<{ n: number }>(
    `SELECT count(*) AS n FROM dead_letters
     WHERE redrive_requested_at IS NOT NULL AND redriven_at IS NULL`,
    [],
  );
  return { requested: changes, waiting: waiting?.n ?? 0 };
}

const NONE = '-';

export const DEAD_LETTER_HEADER = [
  'id'.padStart(6),
  'failed at (UTC)'.padEnd(23),
  'events'.padStart(6),
  'first event'.padEnd(28),
  'insert_id'.padEnd(40),
  'redriven',
].join('  ');

function redriveState(row: DeadLetterRow): string {
  if (row.redriven_at !== null) return eventTime(row.redriven_at);
  if (row.redrive_requested_at !== null) return 'asked, not sent yet';
  return NONE;
}

/** Visitors typed some of this; control characters are shown as spaces, never obeyed. */
function printable(text: string, width: number): string {
  const clean = text.replace(/\p{Cc}/gu, ' ');
  return (clean.length > width ? `${clean.slice(0, width - 1)}…` : clean).padEnd(width);
}

export function formatDeadLetter(row: DeadLetterRow): string {
  return [
    String(row.seq).padStart(6),
    eventTime(row.failed_at).padEnd(23),
    String(row.events).padStart(6),
    printable(row.event_type ?? NONE, 28),
    printable(row.insert_id ?? NONE, 40),
    redriveState(row),
  ].join('  ');
}

/** One row in full: its fields, then the stored message, indented. */
export function formatDeadLetterDetail(row: DeadLetterRow & { body: string }): string {
  let message: string;
  try {
    message = JSON.stringify(JSON.parse(row.body), null, 2);
  } catch {
    message = row.body;
  }
  return [
    `id:          ${row.seq}`,
    `failed at:   ${eventTime(row.failed_at)} UTC`,
    `insert_id:   ${row.insert_id ?? NONE}`,
    `events:      ${row.events}`,
    `redrive:     ${redriveState(row)}`,
    `bytes:       ${row.bytes}`,
    'message:',
    message.replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : ' ')),
  ].join('\n');
}

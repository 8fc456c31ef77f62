import { DESTINATIONS, type DestinationName } from '../../worker/collector/consumer/outcome';
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
  /** JSON array of the destinations it never reached; null: not known (all of them). */
  destinations: string | null;
  attempts: number | null;
  /** JSON object: each failing destination's last error code. */
  error: string | null;
  /** JSON array a redrive was asked for; null: its destinations. */
  redrive_destinations: string | null;
  /** The oldest of its events' times (epoch ms); null for an unreadable message. */
  event_at: number | null;
}

// A v2 message holds `events`, a v1 message one `event`; an unreadable one may hold neither.
const SUMMARY = `seq, insert_id, failed_at, redrive_requested_at, redriven_at, destinations, attempts,
  error, redrive_destinations,
  coalesce((SELECT min(json_extract(value, '$.time')) FROM json_each(body, '$.events')),
    json_extract(body, '$.event.time')) AS event_at,
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

const HOUR_MS = 3600_000;

/**
 * How long after an event each destination still drops a repeat of it: Amplitude by insert_id
 * for 7 days, Meta (pixel and Conversions API alike) and TikTok by event_id for 48 hours. Past
 * that, a destination that had the event after all (an answer lost, not a refusal) counts it
 * twice. The others drop repeats for good (the experiment's flags, the subscription ledger, the
 * local store by key) or keep every line for its readers to take once (the archive).
 */
const DEDUPLICATION_WINDOW_MS: Partial<Record<DestinationName, number>> = {
  amplitude: 7 * 24 * HOUR_MS,
  meta: 48 * HOUR_MS,
  tiktok: 48 * HOUR_MS,
};

/** A row a redrive would send where its destination can no longer drop a repeat. */
export interface PastWindow {
  seq: number;
  destination: DestinationName;
  /** How old its oldest event is, in hours. */
  ageHours: number;
}

/** What a redrive asks for: rows by id or time, and the destinations (null: each row's own). */
export interface RedriveSelection {
  id: number | null;
  since: number | null;
  destinations: readonly DestinationName[] | null;
  /** Send past a destination's de-duplication window too (the operator was told, and asked). */
  force: boolean;
}

/** The destinations a row goes to: the operator's, else those it never reached, else all. */
function targetsOf(row: Pick<DeadLetterRow, 'destinations'>, selection: RedriveSelection) {
  if (selection.destinations) return selection.destinations;
  return row.destinations === null
    ? DESTINATIONS
    : (JSON.parse(row.destinations) as DestinationName[]);
}

/** The rows the selection would send past a window, oldest event first. */
async function pastWindows(
  sql: SqlRunner,
  selection: RedriveSelection,
  now: number,
): Promise<PastWindow[]> {
  const rows = await sql.all<Pick<DeadLetterRow, 'seq' | 'destinations' | 'event_at'>>(
    `SELECT seq, destinations, event_at FROM (SELECT ${SUMMARY} FROM dead_letters
       WHERE redrive_requested_at IS NULL AND failed_at >= ? AND (? IS NULL OR seq = ?))
     ORDER BY event_at`,
    [selection.since ?? 0, selection.id, selection.id],
  );
  return rows.flatMap((row) =>
    targetsOf(row, selection).flatMap((destination) => {
      const window = DEDUPLICATION_WINDOW_MS[destination];
      const age = row.event_at === null ? null : now - row.event_at;
      return window !== undefined && age !== null && age > window
        ? [{ seq: row.seq, destination, ageHours: Math.floor(age / HOUR_MS) }]
        : [];
    }),
  );
}

/**
 * Asks for the rows (one, or all that failed at or after `since`) to be sent again, to the
 * destinations each never reached or to those named: only rows never asked for before, so a
 * redrive run twice sends a row once. Refuses, asking nothing, when a row would reach a
 * destination past its de-duplication window (DEDUPLICATION_WINDOW_MS), unless forced. Answers
 * how many it asked for, and how many are waiting for the worker to send them, these included.
 */
export async function requestRedrive(
  sql: SqlRunner,
  selection: RedriveSelection,
  now: number,
): Promise<{ requested: number; waiting: number; pastWindows: PastWindow[] }> {
  const past = await pastWindows(sql, selection, now);
  if (past.length > 0 && !selection.force) {
    return { requested: 0, waiting: await waitingRows(sql), pastWindows: past };
  }
  const { changes } = await sql.run(
    `UPDATE dead_letters SET redrive_requested_at = ?, redrive_destinations = ?
     WHERE redrive_requested_at IS NULL AND failed_at >= ? AND (? IS NULL OR seq = ?)`,
    [
      now,
      selection.destinations ? JSON.stringify(selection.destinations) : null,
      selection.since ?? 0,
      selection.id,
      selection.id,
    ],
  );
  return { requested: changes, waiting: await waitingRows(sql), pastWindows: past };
}

/** The rows asked for and not sent yet. */
async function waitingRows(sql: SqlRunner): Promise<number> {
  const [waiting] = await sql.all<{ n: number }>(
    `SELECT count(*) AS n FROM dead_letters
     WHERE redrive_requested_at IS NOT NULL AND redriven_at IS NULL`,
    [],
  );
  return waiting?.n ?? 0;
}

const NONE = '-';

export const DEAD_LETTER_HEADER = [
  'id'.padStart(6),
  'failed at (UTC)'.padEnd(23),
  'events'.padStart(6),
  'first event'.padEnd(28),
  'insert_id'.padEnd(40),
  'never reached'.padEnd(24),
  'redriven',
].join('  ');

/** The destinations as a list: "amplitude, meta"; "-" when not known. */
function destinationList(json: string | null): string {
  return json === null ? NONE : (JSON.parse(json) as string[]).join(', ');
}

function redriveState(row: DeadLetterRow): string {
  if (row.redriven_at !== null) {
    const to = row.redrive_destinations ?? row.destinations;
    return to === null
      ? eventTime(row.redriven_at)
      : `${eventTime(row.redriven_at)} to ${destinationList(to)}`;
  }
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
    printable(destinationList(row.destinations), 24),
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
  const errors = row.error === null ? {} : (JSON.parse(row.error) as Record<string, string>);
  return [
    `id:          ${row.seq}`,
    `failed at:   ${eventTime(row.failed_at)} UTC`,
    // As JSON: a visitor's id is shown, control characters and all, never obeyed by the terminal.
    `insert_id:   ${row.insert_id === null ? NONE : JSON.stringify(row.insert_id)}`,
    `events:      ${row.events}`,
    `oldest:      ${row.event_at === null ? NONE : `${eventTime(row.event_at)} UTC`}`,
    `never reached: ${destinationList(row.destinations)}`,
    ...Object.entries(errors).map(
      ([destination, code]) => `  ${destination}: ${JSON.stringify(code)}`,
    ),
    `tried:       ${row.attempts === null ? NONE : `${row.attempts} times`}`,
    `redrive:     ${redriveState(row)}`,
    `bytes:       ${row.bytes}`,
    'message:',
    message.replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : ' ')),
  ].join('\n');
}

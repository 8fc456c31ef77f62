import { ResumeRecord } from './resume-record';

/** How long a resume link works: time to switch browsers, too short to be worth stealing. */
const RESUME_TTL_MS = 15 * 60_000;

function deleteExpired(db: D1Database, nowMs: number): D1PreparedStatement {
  return db.prepare('DELETE FROM resume_links WHERE expires_at <= ?').bind(nowMs);
}

function insertRecord(
  db: D1Database,
  id: string,
  record: ResumeRecord,
  times: { createdAt: number; expiresAt: number },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO resume_links (id, created_at, expires_at, payload) VALUES (?, ?, ?, ?)')
    .bind(id, times.createdAt, times.expiresAt, JSON.stringify(record));
}

/** Stores a record under `id` until RESUME_TTL_MS from `nowMs`, and sweeps expired ones. */
export async function saveResumeRecord(
  db: D1Database,
  id: string,
  record: ResumeRecord,
  nowMs: number,
): Promise<{ expiresAt: number }> {
  const expiresAt = nowMs + RESUME_TTL_MS;
  await db.batch([
    deleteExpired(db, nowMs),
    insertRecord(db, id, record, { createdAt: nowMs, expiresAt }),
  ]);
  return { expiresAt };
}

export type Consumed =
  | { ok: true; record: ResumeRecord; expiresAt: number }
  /** Used already, expired, or never stored: the database cannot tell these apart. */
  | { ok: false; reason: 'used_or_expired' | 'unreadable' };

/**
 * Takes the record out: one DELETE … RETURNING, so of two browsers opening the link at once
 * exactly one gets it. An expired row is not returned (and is swept in the same batch).
 */
export async function consumeResumeRecord(
  db: D1Database,
  id: string,
  nowMs: number,
): Promise<Consumed> {
  const [taken] = await db.batch<{ payload: string; expires_at: number }>([
    db
      .prepare(
        'DELETE FROM resume_links WHERE id = ? AND expires_at > ? RETURNING payload, expires_at',
      )
      .bind(id, nowMs),
    deleteExpired(db, nowMs),
  ]);
  const row = taken?.results[0];
  if (row === undefined) return { ok: false, reason: 'used_or_expired' };
  try {
    const parsed = ResumeRecord.safeParse(JSON.parse(row.payload));
    return parsed.success
      ? { ok: true, record: parsed.data, expiresAt: row.expires_at }
      : { ok: false, reason: 'unreadable' };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/**
 * Puts a taken record back as it was, until its own expiry: for a link whose opening failed on
 * something outside the visitor's reach (the portal down while signing in), so the same link
 * works again. If the link was opened twice at once, only one of them took the record.
 */
export async function putBackResumeRecord(
  db: D1Database,
  id: string,
  record: ResumeRecord,
  expiresAt: number,
  nowMs: number,
): Promise<void> {
  await insertRecord(db, id, record, { createdAt: nowMs, expiresAt }).run();
}

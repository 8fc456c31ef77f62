import { ResumeRecord } from './resume-record';

/** How long a resume link works: time to switch browsers, too short to be worth stealing. */
const RESUME_TTL_MS = 15 * 60_000;

function deleteExpired(db: D1Database, nowMs: number): D1PreparedStatement {
  return db.prepare('DELETE FROM resume_links WHERE expires_at <= ?').bind(nowMs);
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
    db
      .prepare('INSERT INTO resume_links (id, created_at, expires_at, payload) VALUES (?, ?, ?, ?)')
      .bind(id, nowMs, expiresAt, JSON.stringify(record)),
  ]);
  return { expiresAt };
}

export type Consumed =
  | { ok: true; record: ResumeRecord }
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
  const [taken] = await db.batch<{ payload: string }>([
    db
      .prepare('DELETE FROM resume_links WHERE id = ? AND expires_at > ? RETURNING payload')
      .bind(id, nowMs),
    deleteExpired(db, nowMs),
  ]);
  const payload = taken?.results[0]?.payload;
  if (payload === undefined) return { ok: false, reason: 'used_or_expired' };
  try {
    const parsed = ResumeRecord.safeParse(JSON.parse(payload));
    return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: 'unreadable' };
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
}

/**
 * The `closed_attempts` table (migration 0014): charge attempts closed unpaid, under which the
 * trigger of that migration lets no subscription be written.
 */

/**
 * Closes the user's attempt `key` unless a subscription was written under it; true when it is
 * closed (now or before), false when a charge under it exists. The insert and the trigger are one
 * statement each, so a charge on its way either lands first (false) or is refused (true).
 */
export async function closeAttempt(
  db: D1Database,
  userId: string,
  key: string,
  now: string,
): Promise<boolean> {
  await db
    .prepare(
      `INSERT OR IGNORE INTO closed_attempts (user_id, idempotency_key, closed_at)
       SELECT ?1, ?2, ?3 WHERE NOT EXISTS (
         SELECT 1 FROM subscriptions WHERE user_id = ?1 AND idempotency_key = ?2)`,
    )
    .bind(userId, key, now)
    .run();
  const closed = await db
    .prepare('SELECT 1 AS closed FROM closed_attempts WHERE user_id = ? AND idempotency_key = ?')
    .bind(userId, key)
    .first<{ closed: number }>();
  return closed !== null;
}

/** The charge's write failed because its attempt was closed (the trigger of migration 0014). */
export function isAttemptClosedError(error: unknown): boolean {
  return error instanceof Error && error.message.includes('attempt_closed');
}

/** The `deeplink_tokens` table: one-time login tokens carried by the short deeplink. */

export function insertDeeplinkTokenStatement(
  db: D1Database,
  token: { token: string; userId: string; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO deeplink_tokens (token, user_id, created_at) VALUES (?, ?, ?)')
    .bind(token.token, token.userId, token.createdAt);
}

/** The user's newest token that has not logged anyone in yet, if any. */
export function findUnusedDeeplinkToken(db: D1Database, userId: string): Promise<string | null> {
  return db
    .prepare(
      'SELECT token FROM deeplink_tokens WHERE user_id = ? AND used_at IS NULL ORDER BY created_at DESC LIMIT 1',
    )
    .bind(userId)
    .first<string>('token');
}

/**
 * Marks the token used and answers its user, or null when it is unknown or already used. One
 * statement, so two devices opening the same link cannot both log in.
 */
export function consumeDeeplinkToken(
  db: D1Database,
  token: string,
  usedAt: string,
): Promise<string | null> {
  return db
    .prepare(
      'UPDATE deeplink_tokens SET used_at = ? WHERE token = ? AND used_at IS NULL RETURNING user_id',
    )
    .bind(usedAt, token)
    .first<string>('user_id');
}

export async function deeplinkTokenExists(db: D1Database, token: string): Promise<boolean> {
  const row = await db.prepare('SELECT 1 FROM deeplink_tokens WHERE token = ?').bind(token).first();
  return row !== null;
}

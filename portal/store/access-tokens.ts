/** The `access_tokens` table: SHA-256 of each bearer token handed out, never the token itself. */

export function insertAccessTokenStatement(
  db: D1Database,
  token: { hash: string; userId: string; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO access_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)')
    .bind(token.hash, token.userId, token.createdAt);
}

export async function findUserIdByAccessTokenHash(
  db: D1Database,
  hash: string,
): Promise<string | null> {
  return db
    .prepare('SELECT user_id FROM access_tokens WHERE token_hash = ?')
    .bind(hash)
    .first<string>('user_id');
}

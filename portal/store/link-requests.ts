import type { LinkRequest } from '../../shared/api/contract-calls';
import { prefixedId } from '../tokens';

/**
 * The `link_requests` table (migration 0017): the manage links the emulated product API "emailed"
 * for each "Email me a link to my subscription", once per Idempotency-Key.
 */

/** The subscriptions of the account with `email` that a link can still manage (charged, not refunded). */
export async function manageableSubscriptionsOf(db: D1Database, emailKey: string) {
  const { results } = await db
    .prepare(
      `SELECT id FROM subscriptions WHERE status = 'active' AND refunded_at IS NULL
       AND user_id = (SELECT id FROM users WHERE email_key = ?) ORDER BY created_at`,
    )
    .bind(emailKey)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** How many links a request under `key` made already (null: it was never asked). */
export async function linksAskedUnder(db: D1Database, key: string): Promise<number | null> {
  const row = await db
    .prepare(
      'SELECT COUNT(*) AS asked, COUNT(manage_url) AS links FROM link_requests WHERE request_key = ?',
    )
    .bind(key)
    .first<{ asked: number; links: number }>();
  return row && row.asked > 0 ? row.links : null;
}

/** Keeps one request's links (none: one row saying it found no subscription). */
export async function keepLinkRequest(
  db: D1Database,
  key: string,
  request: LinkRequest,
  links: readonly { subscriptionId: string; url: string | null }[],
): Promise<void> {
  const at = new Date().toISOString();
  const rows = links.length > 0 ? links : [{ subscriptionId: null, url: null }];
  await db.batch(
    rows.map((link) =>
      db
        .prepare(
          `INSERT INTO link_requests
             (id, request_key, email, subscription_id, manage_url, brand, language, asked_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          prefixedId('lnk'),
          key,
          request.email,
          link.subscriptionId,
          link.url,
          request.brand ?? null,
          request.language ?? null,
          at,
        ),
    ),
  );
}

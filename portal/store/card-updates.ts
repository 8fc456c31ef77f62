/**
 * The `card_updates` table (migration 0012): a subscriber's card updates, one per Idempotency-Key,
 * and the subscription's card (`subscriptions.payment_method`) each successful one sets.
 */

/** One update of a subscription's card, and how far it got. */
export interface CardUpdate {
  subscriptionId: string;
  idempotencyKey: string;
  paymentMethod: string;
  /** The 3-D Secure challenge it waits on, if any. */
  paymentIntentId: string | null;
  /** ISO 8601: when the card became the subscription's; null until then. */
  updatedAt: string | null;
}

const COLUMNS = `subscription_id AS subscriptionId, idempotency_key AS idempotencyKey,
  payment_method AS paymentMethod, payment_intent_id AS paymentIntentId, updated_at AS updatedAt`;

/** The update a key made on the subscription, if any. */
export function findCardUpdate(
  db: D1Database,
  subscriptionId: string,
  idempotencyKey: string,
): Promise<CardUpdate | null> {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM card_updates WHERE subscription_id = ? AND idempotency_key = ?`,
    )
    .bind(subscriptionId, idempotencyKey)
    .first<CardUpdate>();
}

/** Notes the update waits on a 3-D Secure challenge (a new one replaces an older one). */
export async function awaitCardChallenge(
  db: D1Database,
  update: Omit<CardUpdate, 'updatedAt'>,
  at: string,
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO card_updates (subscription_id, idempotency_key, payment_method,
         payment_intent_id, created_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (subscription_id, idempotency_key)
       DO UPDATE SET payment_intent_id = excluded.payment_intent_id
       WHERE card_updates.updated_at IS NULL`,
    )
    .bind(
      update.subscriptionId,
      update.idempotencyKey,
      update.paymentMethod,
      update.paymentIntentId,
      at,
    )
    .run();
}

/**
 * Makes the card the subscription's, once per key: true when this call did, false when another
 * call with the key had already (its change stands; nothing changes twice).
 */
export async function applyCardUpdate(
  db: D1Database,
  update: { subscriptionId: string; idempotencyKey: string; paymentMethod: string },
  at: string,
): Promise<boolean> {
  const noted = await db
    .prepare(
      `INSERT INTO card_updates (subscription_id, idempotency_key, payment_method, created_at,
         updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (subscription_id, idempotency_key)
       DO UPDATE SET updated_at = excluded.updated_at WHERE card_updates.updated_at IS NULL`,
    )
    .bind(update.subscriptionId, update.idempotencyKey, update.paymentMethod, at, at)
    .run();
  if (noted.meta.changes !== 1) return false;
  await db
    .prepare('UPDATE subscriptions SET payment_method = ? WHERE id = ?')
    .bind(update.paymentMethod, update.subscriptionId)
    .run();
  return true;
}

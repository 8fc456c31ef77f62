/** The `subscriptions` table: every charge the emulated gateway decided. */

export interface StoredSubscription {
  id: string;
  planId: string;
  gateway: string;
  status: string;
  priceWithDiscount: number | null;
  coupon: string | null;
  eventId: string;
  declineCode: string | null;
}

export function insertSubscriptionStatement(
  db: D1Database,
  subscription: StoredSubscription & {
    userId: string;
    idempotencyKey: string | null;
    createdAt: string;
  },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO subscriptions (id, user_id, plan_id, gateway, status, price_with_discount, coupon,
         event_id, idempotency_key, decline_code, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      subscription.id,
      subscription.userId,
      subscription.planId,
      subscription.gateway,
      subscription.status,
      subscription.priceWithDiscount,
      subscription.coupon,
      subscription.eventId,
      subscription.idempotencyKey,
      subscription.declineCode,
      subscription.createdAt,
    );
}

export function findSubscriptionByIdempotencyKey(
  db: D1Database,
  userId: string,
  idempotencyKey: string,
): Promise<StoredSubscription | null> {
  return db
    .prepare(
      `SELECT id, plan_id AS planId, gateway, status, price_with_discount AS priceWithDiscount,
         coupon, event_id AS eventId, decline_code AS declineCode
       FROM subscriptions WHERE user_id = ? AND idempotency_key = ?`,
    )
    .bind(userId, idempotencyKey)
    .first<StoredSubscription>();
}

/** True when a write lost the race for an Idempotency-Key to a concurrent identical request. */
export function isIdempotencyKeyTakenError(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message.includes(
      'UNIQUE constraint failed: subscriptions.user_id, subscriptions.idempotency_key',
    )
  );
}

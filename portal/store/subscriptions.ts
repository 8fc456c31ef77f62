/** The `subscriptions` table: every charge the emulated gateway decided. */

/**
 * `active`: charged. `declined`: the gateway refused; nothing charged. `requires_action`: waiting
 * for the card's 3-D Secure challenge and the repeated call with the intent id, which turns it
 * into `active` or `declined` (portal/charges.ts).
 */
export type SubscriptionStatus = 'active' | 'declined' | 'requires_action';

export interface StoredSubscription {
  id: string;
  planId: string;
  gateway: string;
  status: SubscriptionStatus;
  priceWithDiscount: number | null;
  coupon: string | null;
  /** Only a charged subscription has a purchase event. */
  eventId: string | null;
  declineCode: string | null;
  processorResponse: string | null;
  /** The nonce charged (a `tpm_…` of the test gateway, or another gateway's nonce). */
  paymentMethod: string | null;
  paymentIntentId: string | null;
  /** The currency and price id the charge request named (SPEC.md §7, ours), when it did. */
  currency?: string | null;
  priceId?: string | null;
  /** The purchase the charge request named (`purchase_id`, ours), when it did. */
  purchaseId?: string | null;
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
         event_id, idempotency_key, decline_code, processor_response, payment_method,
         payment_intent_id, created_at, currency, price_id, purchase_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
      subscription.processorResponse,
      subscription.paymentMethod,
      subscription.paymentIntentId,
      subscription.createdAt,
      subscription.currency ?? null,
      subscription.priceId ?? null,
      subscription.purchaseId ?? null,
    );
}

const SUBSCRIPTION_COLUMNS = `id, plan_id AS planId, gateway, status,
  price_with_discount AS priceWithDiscount, coupon, event_id AS eventId,
  decline_code AS declineCode, processor_response AS processorResponse,
  payment_method AS paymentMethod, payment_intent_id AS paymentIntentId, currency,
  price_id AS priceId, purchase_id AS purchaseId`;

export function findSubscriptionByIdempotencyKey(
  db: D1Database,
  userId: string,
  idempotencyKey: string,
): Promise<StoredSubscription | null> {
  return db
    .prepare(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = ? AND idempotency_key = ?`,
    )
    .bind(userId, idempotencyKey)
    .first<StoredSubscription>();
}

/**
 * The user's charged subscription of the purchase `purchaseId`, if one of its attempts charged:
 * a later attempt of the same purchase is answered with it.
 */
export function findChargedPurchase(
  db: D1Database,
  userId: string,
  purchaseId: string,
): Promise<StoredSubscription | null> {
  return db
    .prepare(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
       WHERE user_id = ? AND purchase_id = ? AND status = 'active' LIMIT 1`,
    )
    .bind(userId, purchaseId)
    .first<StoredSubscription>();
}

export function findSubscription(db: D1Database, id: string): Promise<StoredSubscription | null> {
  return db
    .prepare(`SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE id = ?`)
    .bind(id)
    .first<StoredSubscription>();
}

/** The payment method of the user's newest charged subscription: what an upsell charges. */
export function findPaymentMethodOnFile(db: D1Database, userId: string): Promise<string | null> {
  return db
    .prepare(
      `SELECT payment_method FROM subscriptions
       WHERE user_id = ? AND status = 'active' AND payment_method IS NOT NULL
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    )
    .bind(userId)
    .first<string>('payment_method');
}

/**
 * Decides a subscription that waited for 3-D Secure, once: answers the row as decided, or null
 * when another request decided it first (then read it again and answer that).
 */
export function settleSubscription(
  db: D1Database,
  id: string,
  outcome: Pick<StoredSubscription, 'eventId' | 'declineCode' | 'processorResponse'> & {
    status: Exclude<SubscriptionStatus, 'requires_action'>;
  },
): Promise<StoredSubscription | null> {
  return db
    .prepare(
      `UPDATE subscriptions SET status = ?, event_id = ?, decline_code = ?, processor_response = ?
       WHERE id = ? AND status = 'requires_action' RETURNING ${SUBSCRIPTION_COLUMNS}`,
    )
    .bind(outcome.status, outcome.eventId, outcome.declineCode, outcome.processorResponse, id)
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

import { insertPaymentStatement, type SubscriptionPayment } from './subscription-payments';
import { emailKeyOf } from './users';

/**
 * The subscriber's page on the `subscriptions` table (migration 0007): a subscription as the page
 * shows it, and the two actions that end one, each taken once.
 */

/** A charged subscription with what the page shows of it. */
export interface SubscriberRow {
  id: string;
  /** The user who bought it. */
  userId: string;
  planId: string;
  status: string;
  priceWithDiscount: number | null;
  coupon: string | null;
  paymentMethod: string | null;
  /** ISO 8601: the first charge. */
  createdAt: string;
  canceledAt: string | null;
  refundedAt: string | null;
}

const COLUMNS = `id, user_id AS userId, plan_id AS planId, status, price_with_discount AS priceWithDiscount, coupon,
  payment_method AS paymentMethod, created_at AS createdAt, canceled_at AS canceledAt,
  refunded_at AS refundedAt`;

/** The subscription `id`, if the emulated gateway charged it (a declined attempt is none). */
export function findChargedSubscription(db: D1Database, id: string): Promise<SubscriberRow | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM subscriptions WHERE id = ? AND status = 'active'`)
    .bind(id)
    .first<SubscriberRow>();
}

/**
 * The subscription `reference` of the account whose email is `email` (compared as the sign-up
 * keys it: trimmed, lower case), if it was charged: the contract page's match. Null for a
 * reference of another account, so an email and a reference prove the contract together.
 */
export function findSubscriptionOfEmail(
  db: D1Database,
  reference: string,
  email: string,
): Promise<SubscriberRow | null> {
  return db
    .prepare(
      `SELECT ${COLUMNS} FROM subscriptions WHERE id = ? AND status = 'active'
       AND user_id = (SELECT id FROM users WHERE email_key = ?)`,
    )
    .bind(reference.trim(), emailKeyOf(email))
    .first<SubscriberRow>();
}

/** Marks it canceled at `at`; false when it already was (or was refunded): nothing changed. */
export async function cancelSubscription(db: D1Database, id: string, at: string): Promise<boolean> {
  const result = await db
    .prepare(
      `UPDATE subscriptions SET canceled_at = ?
       WHERE id = ? AND status = 'active' AND canceled_at IS NULL AND refunded_at IS NULL`,
    )
    .bind(at, id)
    .run();
  return result.meta.changes === 1;
}

/**
 * Marks its first charge refunded at `at` (`refund.occurredAt`), and the subscription ended
 * (canceled then too, if it was not before), keeping the refund's payment row in the same batch;
 * false when it was refunded already (and nothing is kept).
 */
export async function refundSubscription(
  db: D1Database,
  id: string,
  refund: SubscriptionPayment,
): Promise<boolean> {
  const at = refund.occurredAt;
  // In one batch, run in order: changes() is what the update just did, so only the call that
  // refunded it keeps its row.
  const [marked] = await db.batch([
    db
      .prepare(
        `UPDATE subscriptions SET refunded_at = ?, canceled_at = COALESCE(canceled_at, ?)
         WHERE id = ? AND status = 'active' AND refunded_at IS NULL`,
      )
      .bind(at, at, id),
    insertPaymentStatement(
      db,
      refund,
      'changes() = 1 AND EXISTS (SELECT 1 FROM subscriptions WHERE id = ?2 AND refunded_at = ?8)',
    ),
  ]);
  return marked?.meta.changes === 1;
}

/** Marks a chargeback at `at`, the first one only: the dispute's row is kept either way. */
export function markChargedBackStatement(db: D1Database, id: string, at: string) {
  return db
    .prepare('UPDATE subscriptions SET charged_back_at = COALESCE(charged_back_at, ?) WHERE id = ?')
    .bind(at, id);
}

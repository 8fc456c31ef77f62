import { insertPaymentStatement, type SubscriptionPayment } from './subscription-payments';

/**
 * The `renewal_dues` table (migration 0008): what a failed renewal left to pay, per subscription,
 * and the one payment that settled it (POST /subscriptions/{id}/pay-due, portal/pay-due.ts).
 */

/** A failed renewal's amount due, and how far its payment got. */
export interface RenewalDue {
  subscriptionId: string;
  /** Major units of `currency`: 39.99. */
  amount: number;
  currency: string;
  failedAt: string;
  /** The 3-D Secure challenge a payment of it waits on, if any. */
  paymentIntentId: string | null;
  paidAt: string | null;
  /** The Idempotency-Key of the call that paid it. */
  idempotencyKey: string | null;
  paymentMethod: string | null;
}

const COLUMNS = `subscription_id AS subscriptionId, amount, currency, failed_at AS failedAt,
  payment_intent_id AS paymentIntentId, paid_at AS paidAt, idempotency_key AS idempotencyKey,
  payment_method AS paymentMethod`;

/**
 * Records that the renewal of `subscriptionId` failed at `at`, leaving `amount` due: a new
 * failure replaces an earlier due of the same subscription, paid or not (the latest is what the
 * recovery email asks for).
 */
export async function recordRenewalDue(
  db: D1Database,
  due: { subscriptionId: string; amount: number; currency: string; at: string },
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO renewal_dues (subscription_id, amount, currency, failed_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (subscription_id) DO UPDATE SET amount = excluded.amount,
         currency = excluded.currency, failed_at = excluded.failed_at, payment_intent_id = NULL,
         paid_at = NULL, idempotency_key = NULL, payment_method = NULL`,
    )
    .bind(due.subscriptionId, due.amount, due.currency, due.at)
    .run();
}

/** The subscription's latest failed renewal, paid or not; null when none failed. */
export function findRenewalDue(db: D1Database, subscriptionId: string): Promise<RenewalDue | null> {
  return db
    .prepare(`SELECT ${COLUMNS} FROM renewal_dues WHERE subscription_id = ?`)
    .bind(subscriptionId)
    .first<RenewalDue>();
}

/** Names the 3-D Secure challenge an unpaid due now waits on. */
export async function awaitDueChallenge(
  db: D1Database,
  subscriptionId: string,
  paymentIntentId: string,
): Promise<void> {
  await db
    .prepare(
      'UPDATE renewal_dues SET payment_intent_id = ? WHERE subscription_id = ? AND paid_at IS NULL',
    )
    .bind(paymentIntentId, subscriptionId)
    .run();
}

/**
 * Marks the due paid, once, and keeps its payment (`payment`, a row of subscription_payments)
 * in the same batch: true when this call paid it, false when another had already (its payment
 * stands, this one is not kept, and it must not be charged). The row outlives the due: a later
 * failure replaces the due, never the payments before it. `keepCard`: the card that paid becomes
 * the subscription's (`subscriptions.payment_method`), in the same batch and only when this call
 * paid (a renewal the product API retried itself paid with the card it already had).
 */
export async function markDuePaid(
  db: D1Database,
  subscriptionId: string,
  paid: { at: string; idempotencyKey: string | null; paymentMethod: string; keepCard?: boolean },
  payment: SubscriptionPayment,
): Promise<boolean> {
  const paidHere =
    'EXISTS (SELECT 1 FROM renewal_dues WHERE subscription_id = ?2 AND payment_id = ?1)';
  const keepCard = paid.keepCard
    ? [
        db
          .prepare(`UPDATE subscriptions SET payment_method = ?3 WHERE id = ?2 AND ${paidHere}`)
          .bind(payment.id, subscriptionId, paid.paymentMethod),
      ]
    : [];
  const [marked] = await db.batch([
    db
      .prepare(
        `UPDATE renewal_dues SET paid_at = ?, idempotency_key = ?, payment_method = ?,
           payment_id = ?
         WHERE subscription_id = ? AND paid_at IS NULL`,
      )
      .bind(paid.at, paid.idempotencyKey, paid.paymentMethod, payment.id, subscriptionId),
    // Only when the update above was this call's: the due now names this payment.
    insertPaymentStatement(db, payment, paidHere),
    ...keepCard,
  ]);
  return marked?.meta.changes === 1;
}

import type { IntentStatus } from '../../shared/test-gateway-protocol';

/** The `test_payment_intents` table: the test gateway's 3-D Secure challenges. */

export type IntentPurpose = 'payment' | 'verify';

export interface TestPaymentIntent {
  id: string;
  secret: string;
  purpose: IntentPurpose;
  paymentMethodId: string;
  userId: string | null;
  planId: string | null;
  /** For purpose 'payment': the subscription row the challenge decides. */
  subscriptionId: string | null;
  status: IntentStatus;
}

export function insertTestPaymentIntentStatement(
  db: D1Database,
  intent: TestPaymentIntent & { createdAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO test_payment_intents (id, secret, purpose, payment_method_id, user_id, plan_id,
         subscription_id, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      intent.id,
      intent.secret,
      intent.purpose,
      intent.paymentMethodId,
      intent.userId,
      intent.planId,
      intent.subscriptionId,
      intent.status,
      intent.createdAt,
    );
}

const INTENT_COLUMNS = `id, secret, purpose, payment_method_id AS paymentMethodId, user_id AS userId,
  plan_id AS planId, subscription_id AS subscriptionId, status`;

export function findTestPaymentIntent(
  db: D1Database,
  id: string,
): Promise<TestPaymentIntent | null> {
  return db
    .prepare(`SELECT ${INTENT_COLUMNS} FROM test_payment_intents WHERE id = ?`)
    .bind(id)
    .first<TestPaymentIntent>();
}

/**
 * Records the challenge's outcome, once: answers the intent as it now stands, or null when it
 * had already been decided (the first outcome stays).
 */
export function authenticateTestPaymentIntent(
  db: D1Database,
  id: string,
  status: Exclude<IntentStatus, 'requires_action'>,
  at: string,
): Promise<TestPaymentIntent | null> {
  return db
    .prepare(
      `UPDATE test_payment_intents SET status = ?, authenticated_at = ?
       WHERE id = ? AND status = 'requires_action' RETURNING ${INTENT_COLUMNS}`,
    )
    .bind(status, at, id)
    .first<TestPaymentIntent>();
}

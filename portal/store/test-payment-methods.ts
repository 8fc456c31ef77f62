import type { IntentStatus } from '../../shared/test-gateway-protocol';
import type { CardBehaviour } from '../test-gateway/test-cards';

/** The `test_payment_methods` table: tokenized test cards, never their full number. */

export interface TestPaymentMethod {
  id: string;
  brand: string;
  last4: string;
  behaviour: CardBehaviour;
  /** Braintree-style 3-D Secure verification of this nonce; null until asked. */
  verification: IntentStatus | null;
}

export function insertTestPaymentMethodStatement(
  db: D1Database,
  method: Omit<TestPaymentMethod, 'verification'> & { fingerprint: string; createdAt: string },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO test_payment_methods (id, brand, last4, behaviour, fingerprint, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      method.id,
      method.brand,
      method.last4,
      method.behaviour,
      method.fingerprint,
      method.createdAt,
    );
}

/** The card fingerprint of a tokenized test card (test-cards.ts cardFingerprintOf), if known. */
export async function findTestCardFingerprint(
  db: D1Database,
  id: string,
): Promise<{ fingerprint: string; brand: string } | null> {
  const row = await db
    .prepare('SELECT fingerprint, brand FROM test_payment_methods WHERE id = ?')
    .bind(id)
    .first<{ fingerprint: string | null; brand: string }>();
  return row?.fingerprint ? { fingerprint: row.fingerprint, brand: row.brand } : null;
}

export function findTestPaymentMethod(
  db: D1Database,
  id: string,
): Promise<TestPaymentMethod | null> {
  return db
    .prepare(
      'SELECT id, brand, last4, behaviour, verification FROM test_payment_methods WHERE id = ?',
    )
    .bind(id)
    .first<TestPaymentMethod>();
}

export function setVerificationStatement(
  db: D1Database,
  id: string,
  verification: IntentStatus,
): D1PreparedStatement {
  return db
    .prepare('UPDATE test_payment_methods SET verification = ? WHERE id = ?')
    .bind(verification, id);
}

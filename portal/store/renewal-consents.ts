import type { RenewalConsent } from '../../shared/api/contract';

/** The `renewal_consents` table: the consent a charge was asked with, kept beside it. */

export function insertRenewalConsentStatement(
  db: D1Database,
  subscriptionId: string,
  consent: RenewalConsent,
  receivedAt: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO renewal_consents (subscription_id, text_version, language, accepted_at)
       VALUES (?, ?, ?, ?)`,
    )
    .bind(
      subscriptionId,
      consent.text_version,
      consent.language,
      consent.accepted_at ?? receivedAt,
    );
}

/** The consent kept with a subscription, as the contract names its fields; null when none. */
export function findRenewalConsent(
  db: D1Database,
  subscriptionId: string,
): Promise<RenewalConsent | null> {
  return db
    .prepare(
      `SELECT text_version, language, accepted_at FROM renewal_consents WHERE subscription_id = ?`,
    )
    .bind(subscriptionId)
    .first<RenewalConsent>();
}

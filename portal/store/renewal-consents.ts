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

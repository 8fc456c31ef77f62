/** The `phone_lookups` table: every number the funnel located. */

export interface PhoneLookup {
  phone: string;
  valid: boolean;
  country: string | null;
  /** When the consent SMS of SPEC.md §6 would have gone out; null when none would. */
  consentSmsAt: string | null;
  createdAt: string;
}

export async function recordPhoneLookup(db: D1Database, lookup: PhoneLookup): Promise<void> {
  await db
    .prepare(
      'INSERT INTO phone_lookups (phone, valid, country, consent_sms_at, created_at) VALUES (?, ?, ?, ?, ?)',
    )
    .bind(lookup.phone, lookup.valid ? 1 : 0, lookup.country, lookup.consentSmsAt, lookup.createdAt)
    .run();
}

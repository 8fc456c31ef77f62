/**
 * The visitor's answer to the consent banner, kept in one cookie that the page writes
 * (islands/pixels/consent.ts) and the worker reads and writes (worker/attribution/consent.ts,
 * worker/routes/consent.ts): its name, its life and its values, written once for both.
 */
export const CONSENT_COOKIE = 'gf_consent';

/** SPEC.md §9 cookie expiry (365 days). */
export const CONSENT_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export type ConsentAnswer = 'granted' | 'denied';

export function isConsentAnswer(value: unknown): value is ConsentAnswer {
  return value === 'granted' || value === 'denied';
}

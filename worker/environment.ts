import type { Bindings } from './env';

/**
 * Which environment this worker is (its ENVIRONMENT binding), and what each allows: every test
 * switch fails closed on an unset or misspelt value.
 */

/**
 * Whether this worker may act on real campaigns: send conversions to the ad networks and fire
 * pixel events without the `_test` suffix. Real only in production, so a staging or misnamed
 * worker never pollutes them.
 */
export function isProduction(env: Bindings): boolean {
  return env.ENVIRONMENT === 'production';
}

/**
 * Whether the test switches are on: the embedded portal, the test gateway and the gateway's
 * framing exception. On only when ENVIRONMENT is exactly 'development', so an unset, misspelt or
 * staging value fails closed. Not the negation of isProduction: a staging worker is neither.
 */
export function isDevelopment(env: Bindings): boolean {
  return env.ENVIRONMENT === 'development';
}

/**
 * Whether `?custom_lng=` may choose the page language: SPEC.md §2 honours it "outside production
 * only", so on staging and in development, where copy is checked in every language. Named
 * exactly, like isDevelopment, so an unset or misspelt ENVIRONMENT (which behaves as production)
 * fails closed.
 */
export function honoursCustomLanguage(env: Bindings): boolean {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'staging';
}

/**
 * Whether the `CF-IPCountry` header names the visitor's country over `request.cf.country`: only
 * in development, where `wrangler dev` gives every request a `cf.country` of its own (the
 * machine's, or "US" offline) and the header is the documented way to be a visitor from anywhere
 * (README, "A visitor from another country"). Named exactly, like isDevelopment: on Cloudflare's
 * edge `cf.country` comes from the visitor's address and no visitor may choose it.
 */
export function honoursCountryHeader(env: Bindings): boolean {
  return env.ENVIRONMENT === 'development';
}

/**
 * Whether a marketer's preview (a signed preview cookie) may name the country its pages see with
 * `?country=`: outside production, as `?custom_lng=` (development and staging, where the console's
 * previews are checked). A preview counts and keeps nothing, and only a marketer behind the
 * console's Access check gets one; in production the edge's country stands even so.
 */
export function honoursPreviewCountry(env: Bindings): boolean {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'staging';
}

/** A signing secret as the worker may use it, or why it may not. */
export type UsableSecret = { ok: true; key: string } | { ok: false; reason: string };

/**
 * The secret `name`, unless it is unset or is the public `developmentValue` wrangler.toml gives
 * `npm start` and the tests, which counts only in development: anyone who read the repository
 * could sign with it, so a deployed worker given it by mistake is as good as not configured.
 */
export function secretOutsideDevelopment(
  env: Bindings,
  name: 'LIFECYCLE_HMAC_KEY' | 'SUBSCRIBER_LINK_KEY',
  developmentValue: string,
): UsableSecret {
  const key = env[name];
  if (!key) return { ok: false, reason: `${name} is not set` };
  if (key === developmentValue && !isDevelopment(env)) {
    return { ok: false, reason: `${name} is the public development key` };
  }
  return { ok: true, key };
}

/**
 * Whether the console may run the 15-minute check on demand (its Alerts area's "Check the
 * guardrails now"): in development and on staging, where a marketer rehearses a guarded ramp's
 * rollback in minutes; never in production, where the cron alone runs it. Named exactly, like
 * isDevelopment, so an unset or misspelt ENVIRONMENT fails closed.
 */
export function rehearsesGuardrails(env: Bindings): boolean {
  return env.ENVIRONMENT === 'development' || env.ENVIRONMENT === 'staging';
}

import { logLine } from '../shared/log';
import { DEFAULT_STRIPE_ACCOUNT_COUNTRY } from '../shared/stripe-account';

/**
 * The country of the Stripe account, which Stripe's payment request (Apple Pay, Google Pay)
 * must be created with: the account's, not the visitor's. The portal's payment settings
 * (SPEC.md §7) name the publishable key and the account name only, so the worker variable
 * STRIPE_ACCOUNT_COUNTRY (wrangler.toml [vars]) carries it.
 */

/** Stripe takes an ISO 3166-1 alpha-2 code in capitals, e.g. 'US', 'GB'. */
const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Malformed values already reported by this isolate: one warning each, not one per page. */
const reported = new Set<string>();

/**
 * The configured account country; unset, the default. A malformed value would make Stripe.js
 * throw when the wallet button is built, so it falls back to the default with a warning line
 * (`wrangler tail`) for the operator.
 */
export function stripeAccountCountry(configured: string | undefined): string {
  if (configured === undefined) return DEFAULT_STRIPE_ACCOUNT_COUNTRY;
  if (COUNTRY_CODE.test(configured)) return configured;
  if (!reported.has(configured)) {
    reported.add(configured);
    logLine({
      level: 'warn',
      warning: 'stripe_account_country_invalid',
      configured,
      used: DEFAULT_STRIPE_ACCOUNT_COUNTRY,
    });
  }
  return DEFAULT_STRIPE_ACCOUNT_COUNTRY;
}

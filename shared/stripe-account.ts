/**
 * The Stripe account's country when the worker variable STRIPE_ACCOUNT_COUNTRY is unset: Stripe's
 * payment request (Apple Pay, Google Pay) is created with the account's country, not the
 * visitor's. The worker checks the variable (worker/payment-providers.ts); a screen rendered
 * without it falls back to the same value.
 */
export const DEFAULT_STRIPE_ACCOUNT_COUNTRY = 'US';

/**
 * What the embedded portal emulator reads from the worker's environment. Everything but the
 * database is optional and has a development default (portal/payment-settings.ts and the routes
 * that read them).
 */
export interface PortalBindings {
  /** The emulator's storage (portal/migrations). */
  PORTAL_DB: D1Database;
  /** 'stripe', 'braintree' or 'test' (default): the gateway payment settings name. */
  PORTAL_PAYMENT_GATEWAY?: string;
  PORTAL_STRIPE_PUBLISHABLE_KEY?: string;
  PORTAL_STRIPE_ACCOUNT_NAME?: string;
  PORTAL_BRAINTREE_CLIENT_TOKEN?: string;
  /** 'true' asks the checkout to run 3-D Secure on every card. */
  PORTAL_REQUEST_THREE_D_SECURE?: string;
  /**
   * Base URL of the short deeplink; defaults to the funnel's origin (the `x-funnel-origin`
   * request header the worker sends) + '/app/login'.
   */
  PORTAL_DEEPLINK_BASE?: string;
  /** Milliseconds a subscription's polling result answers 202 before it is final (default 1000). */
  PORTAL_POLLING_DELAY_MS?: string;
}

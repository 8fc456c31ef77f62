/**
 * What the embedded portal emulator reads from the worker's environment. Everything but the
 * database is optional and has a development default (portal/settings.ts).
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
  /** Base URL of the short deeplink; defaults to the worker's own origin + '/open'. */
  PORTAL_DEEPLINK_BASE?: string;
}

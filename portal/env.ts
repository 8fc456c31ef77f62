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
  /**
   * The secret shared with the worker (wrangler.toml's development value): the emulator signs its
   * lifecycle events with it and checks the subscriber's page's calls by it
   * (portal/routes/subscriber.ts), as a product API does.
   */
  LIFECYCLE_HMAC_KEY?: string;
  /**
   * Not a binding: the worker itself, handed in by the development kit's portal transport
   * (worker/dev/embedded-portal.ts), so the emulator's lifecycle events reach the app that
   * called it without a network. Unset, they go out by fetch to the funnel's origin.
   */
  PORTAL_HOOK_FETCH?: (request: Request) => Promise<Response>;
}

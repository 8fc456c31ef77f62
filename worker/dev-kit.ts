import type { ExecutionContext, Hono, MiddlewareHandler } from 'hono';
import type { CardFingerprintSource } from './checkout/charge-call';
import type { Bindings } from './env';
import type { GeocoderFetch } from './geocode/geocoder-transport';
import type { PortalFetch } from './portal-client/portal-call';
import type { OtherPagesEnv, RootEnv } from './request/envs';

/**
 * What only a development worker carries (ARCHITECTURE.md: "the deployed worker mounts the
 * development kit only from a development entry"). The development entry
 * (worker/dev.ts) builds one and hands it to createApp; the production entry (worker/index.ts)
 * never does, so nothing a kit holds reaches the deployed bundle (test/unit/production-bundle.test.ts).
 *
 * Only the type lives here, so production code may name it without importing any of it. A new
 * development-only capability is a new member here, implemented in worker/dev/ and wired in
 * worker/dev/kit.ts. Handlers reach the kit as `c.get('devKit')`, undefined in production. Every
 * member stays inert unless ENVIRONMENT is exactly 'development' (isDevelopment), itself or by
 * its one caller's check, since the development entry can still be started with another value.
 */
/** An app's own fetch, as Hono's `app.fetch` is. */
export type AppFetch = (
  request: Request,
  env: Bindings,
  ctx: ExecutionContext | undefined,
) => Response | Promise<Response>;

export interface DevKit {
  /**
   * Answers the requests the portal transport addresses to the embedded emulator (PORTAL_URL
   * unset, ENVIRONMENT=development) from PORTAL_DB (portal/), and sends any other to the network.
   */
  portal: PortalFetch;
  /**
   * The embedded portal of the app `appFetch` answers: the lifecycle events the emulator sends
   * (portal/routes/subscriber.ts) come back to that app in-process, since a development worker
   * has no network route to itself in the tests.
   */
  portalFor(appFetch: AppFetch): PortalFetch;
  /**
   * Answers the geocoding requests the worker addresses to the kit (no GEOCODING_API_KEY,
   * ENVIRONMENT=development) from the capitals table and a few other cities, in Google's answer
   * shape, and sends any other to the network. The emulator's failure switch (`geocode`) makes
   * it answer as Google does when it fails.
   */
  geocode: GeocoderFetch;
  /** The test gateway: its card frame, 3-D Secure page and API, at /test-gateway. */
  testGatewayRoutes(): Hono<OtherPagesEnv>;
  /**
   * The card fingerprint of a test gateway nonce (tpm_…), as Stripe gives one for its payment
   * methods: the per-card charge limit works the same locally (worker/checkout/charge-call.ts).
   */
  cardFingerprint: CardFingerprintSource;
  /**
   * Hands the kit to every handler as `c.get('devKit')`, so a development-only capability
   * reaches a route without a new parameter through createApp. createApp installs it only when
   * it is given a kit; in production `c.get('devKit')` is undefined.
   */
  provide(): MiddlewareHandler<RootEnv>;
}

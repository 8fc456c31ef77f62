// biome-ignore lint/style/noRestrictedImports: a type only (erased): the kit's optional bindings.
import type { PortalBindings } from '../portal/env';
import type { AttributionBindings } from './attribution/env';
import type { QueuedMessage } from './collector/queued-event';
import type { PaymentProviderBindings } from './payment-providers';

export interface Bindings
  extends Partial<PortalBindings>,
    AttributionBindings,
    PaymentProviderBindings {
  /** Split weights and flows (SPEC.md §7's config.json and flows.json roles). */
  FUNNEL_CONFIG: KVNamespace;
  /** Built island chunks and `public/` (Workers static assets). */
  ASSETS?: Fetcher;
  /**
   * 'production' on the deployed worker, 'staging' on wrangler.toml's [env.staging]. Only exactly
   * 'development' (npm start, the tests) turns the test switches on (isDevelopment), and only it
   * or exactly 'staging' honours `?custom_lng=` (honoursCustomLanguage); unset or any other value
   * behaves as production (fail closed).
   */
  ENVIRONMENT?: string;
  /**
   * Under `npm start` only: 'production' applies production's rate limits
   * (worker/rate-limits/rate-limit-gate.ts) instead of development's, 20 times looser, which let one person walk the
   * funnel 50 times an hour from one machine (worker/rate-limits/rate-limit-gate.ts, rulesFor). Unset, or
   * 'development', development's. Ignored unless ENVIRONMENT is exactly 'development': a deployed
   * worker always applies production's.
   */
  RATE_LIMITS?: string;
  /**
   * Milliseconds a loaded config (and the translations manifest) is reused per isolate; tests set
   * 0.
   */
  CONFIG_CACHE_TTL_MS?: string;
  /**
   * The product API's base URL (SPEC.md §7), e.g. https://portal.example.com/api/v1. Unset, only
   * the development entry (worker/dev.ts) answers /api/* from the embedded emulator on PORTAL_DB,
   * and only in development; every other worker answers 503 portal_not_configured.
   */
  PORTAL_URL?: string;
  /** Overrides every per-call portal timeout (milliseconds); tests shorten it. */
  PORTAL_TIMEOUT_MS?: string;
  /** Google Identity Services web client id; unset, the Google button says it is not configured. */
  GOOGLE_CLIENT_ID?: string;
  /**
   * The Stripe account's country for the wallets' payment request, e.g. 'US'; unset or
   * malformed, 'US' (worker/payment-providers.ts).
   */
  STRIPE_ACCOUNT_COUNTRY?: string;
  /**
   * 'off' stops the pages' analytics tracker from sending (SPEC.md §7: events are dropped with
   * 'No request sent' when no key is configured); anything else sends to the collector `/e`.
   */
  ANALYTICS?: string;
  /**
   * The share of visitors whose pages report their field Core Web Vitals, 0 to 1; unset, 0.1
   * (worker/collector/vitals-sample.ts).
   */
  VITALS_SAMPLE_RATE?: string;
  /**
   * Secret. A Stripe restricted key with only "PaymentMethods: Read": the worker reads the card
   * fingerprint of a Stripe payment method for the per-card charge limit (card-testing). Unset,
   * Stripe charges are limited per visitor and address only.
   */
  STRIPE_FINGERPRINT_KEY?: string;
  /**
   * Secret. A Google Maps Platform key with only the Geocoding API enabled: the worker geocodes
   * the searching screens' map point with it (worker/geocode/, SPEC.md §7); no page or answer
   * carries it. Unset, geocoding fails (logged `geocoding_failed`, reason `not_configured`) and
   * the map shows the country's capital; in development the kit's geocoder answers instead.
   */
  GEOCODING_API_KEY?: string;
  /**
   * Secret. A Google Maps Platform key with only the Maps Static API enabled: the searching
   * screens' located area as a real map, drawn through the worker (worker/area-map/) so no page
   * carries the key. Unset, the pages keep their drawn map and `/api/area-map` answers 404.
   */
  STATIC_MAPS_API_KEY?: string;
  /**
   * The split test's rows and totals, spread over EXPERIMENT_SHARD_COUNT SQLite Durable Objects
   * by visitor (worker/experiments/store/experiment-shard.ts, assignment/assign.ts shardOfVisitor).
   */
  EXPERIMENT_SHARDS: DurableObjectNamespace<
    import('./experiments/store/experiment-shard').ExperimentShard
  >;
  /**
   * Who bought each subscription, and the lifecycle events and signatures seen for it, spread
   * over LEDGER_SHARD_COUNT SQLite Durable Objects by subscription (worker/lifecycle/ledger.ts).
   */
  SUBSCRIPTION_LEDGER: DurableObjectNamespace<import('./lifecycle/ledger').SubscriptionLedger>;
  /**
   * Each card's attempts of the last 30 days on both providers, one Durable Object per card key,
   * that the retry governor counts (worker/retry-governor/card-attempts.ts).
   */
  CARD_ATTEMPTS: DurableObjectNamespace<import('./retry-governor/card-attempts').CardAttempts>;
  /**
   * Each purchase's attempt ledger on both providers, one Durable Object per buyer and plan
   * (worker/purchase-ledger/charge-guard.ts).
   */
  PURCHASE_ATTEMPTS: DurableObjectNamespace<
    import('./purchase-ledger/charge-guard').PurchaseAttempts
  >;
  /**
   * Each card provider's technical health, one Durable Object per provider, that routes new
   * checkouts around a failing one (worker/provider-health/provider-health.ts).
   */
  PROVIDER_HEALTH: DurableObjectNamespace<
    import('./provider-health/provider-health').ProviderHealth
  >;
  /** Counters of the phone-lookup and sign-up rate limits (worker/rate-limits/rate-limiter.ts). */
  RATE_LIMITER: DurableObjectNamespace<import('./rate-limits/rate-limiter').RateLimiter>;
  /**
   * The events database (worker/events-db/migrations): deliveries of retried messages,
   * verified purchases, resume links, dead letters, the local event store (development only);
   * and the split test's rows of the visitors exposed before EXPERIMENT_SHARDS
   * (worker/experiments/store/experiment-stores.ts).
   */
  EVENTS_DB: D1Database;
  /**
   * The event archive (worker/collector/event-archive.ts), the record of every event whether or
   * not AMPLITUDE_API_KEY is set: gzip-compressed NDJSON, one object per consumer batch and
   * received hour, one versioned line per event (worker/collector/archive-line.ts). Optional in
   * the type so a deployment that lost it is handled (the consumer logs archive_not_configured
   * and retries); wrangler.toml binds it in every environment.
   */
  EVENTS_ARCHIVE?: R2Bucket;
  /**
   * The marketers' pictures (worker/pictures/): originals by content hash and the sizes made
   * from them. Optional in the type so a deployment without it answers 503
   * pictures_not_configured on upload and 404 on a picture; wrangler.toml binds it everywhere.
   */
  PICTURES?: R2Bucket;
  /** Cloudflare Images, which makes the pictures' sizes and formats (worker/pictures/sizes.ts). */
  IMAGES?: ImagesBinding;
  /**
   * New events from `/e`, one message per batch, to the destinations (worker/collector/consumer/).
   */
  EVENTS_QUEUE: Queue<QueuedMessage>;
  /**
   * The marketers' console's version history and audit log (worker/config/migrations): every
   * published config document, in order, with who published it.
   */
  CONFIG_DB: D1Database;
  /**
   * Cloudflare Access in front of `/console` (docs/marketers.md): the team's
   * domain, e.g. https://acme.cloudflareaccess.com, whose certs sign the Access token, and the
   * application's AUD tag. Outside development the console answers 503 without both.
   */
  ACCESS_TEAM_DOMAIN?: string;
  ACCESS_AUD?: string;
  /**
   * 'required': publishing a change that moves traffic or money (weights, routes, plans,
   * experiments started or ended: worker/config/approval.ts) needs a second console user's
   * approval of the shared draft (worker/console/draft-route.ts). Unset or anything else, the
   * console publishes as it always did (docs/operate.md, "Settings").
   */
  PUBLISH_APPROVAL?: string;
  /**
   * Secret. Signs the console's preview cookie (worker/preview/preview.ts), so a visitor cannot
   * make one. Outside development preview links answer 503 without it.
   */
  CONSOLE_PREVIEW_KEY?: string;
  /**
   * Secret. Signs the cookies that decide a visitor's funnel and prices, for their visitor id:
   * their route (gf_route), first touch (gf_touch) and variants (gf_variant, gf_x), so a visitor
   * can neither write nor copy them (worker/request/cookies.ts). In development a fixed
   * public key stands in. Unset elsewhere, no such cookie is trusted or written (fail closed):
   * each page takes the route and first touch from its own request, variants follow from the
   * visitor id alone, and `cookie_key_not_configured` is logged once per isolate.
   */
  COOKIE_SIGNING_KEY?: string;
  /**
   * Only while COOKIE_SIGNING_KEY is rotated (docs/operate.md, "Rotating a signing key"): its
   * value before, still accepted on the cookies visitors bring, never used to sign. Remove it a
   * day after the rotation: no visit keeps a cookie longer.
   */
  COOKIE_SIGNING_KEY_PREVIOUS?: string;
  /**
   * Secret. Signs the resume links that carry a visitor out of an ad app's in-app browser
   * (worker/resume/); without it `POST /api/resume` answers 503 resume_not_configured.
   */
  RESUME_LINK_KEY?: string;
  /**
   * Secret. Verifies the product API's lifecycle events (renewals, refunds, chargebacks,
   * cancellations; worker/lifecycle/); without it `POST /hooks/subscription-events` answers 503
   * lifecycle_not_configured, as it does given the public development value outside development.
   */
  LIFECYCLE_HMAC_KEY?: string;
  /**
   * Secret. Signs the subscribers' links (worker/subscriber-links/): the page from the receipt and
   * the product API's emails where a subscriber sees, pays and cancels their subscription. Unset,
   * or the public development value outside development, no link is made or opened (503
   * links_not_configured).
   */
  SUBSCRIBER_LINK_KEY?: string;
  /**
   * Only while SUBSCRIBER_LINK_KEY is rotated (docs/operate.md, "Rotating a signing key"): its
   * value before, so the links already in receipts and emails still open; never used to sign.
   */
  SUBSCRIBER_LINK_KEY_PREVIOUS?: string;
  /**
   * Secret. Signs the experiments' alerts posted to the webhook a marketer sets
   * (worker/alerts/post-alert.ts, `Geofunnel-Signature`); unset, no alert is claimed or posted and
   * each cron run with a webhook set logs alerts_not_configured.
   */
  ALERTS_HMAC_KEY?: string;
  /**
   * The console's address as marketers open it, e.g. https://funnel.example.com/console: the
   * alerts link to the experiment there. Unset, they name the experiment without a link.
   */
  CONSOLE_URL?: string;
  /**
   * Secret. Set: events also go to Amplitude's batch API, beside the EVENTS_ARCHIVE bucket that
   * keeps them either way (and in development the local store in EVENTS_DB; never D1 in
   * production).
   */
  AMPLITUDE_API_KEY?: string;
  /**
   * Amplitude's batch endpoint; default https://api2.amplitude.com/batch (EU:
   * api.eu.amplitude.com).
   */
  AMPLITUDE_ENDPOINT?: string;
  /** Secret. With META_PIXEL_ID: purchases go to Meta's Conversions API for that pixel. */
  META_ACCESS_TOKEN?: string;
  /**
   * The Graph API version Meta's Conversions API is called with, `v27.0`; unset: the default in
   * worker/collector/consumer/meta.ts. Change it before Meta's version table expires the one used.
   */
  META_GRAPH_VERSION?: string;
  /** Meta's Test Events code; outside production purchases go to Meta only with one. */
  META_TEST_EVENT_CODE?: string;
  /** Secret. With TIKTOK_PIXEL_ID: purchases go to TikTok's Events API for that pixel. */
  TIKTOK_ACCESS_TOKEN?: string;
  /** TikTok's test event code; outside production purchases go to TikTok only with one. */
  TIKTOK_TEST_EVENT_CODE?: string;
}

/**
 * The Bindings each deployed environment takes from `npx wrangler secret put <NAME> --env <name>`,
 * never from wrangler.toml: those whose comment above begins "Secret.". docs/operate.md's deploy
 * steps put each of them in production and in staging; test/unit/docs.test.ts holds this list,
 * those comments and the docs to one another.
 */
export const SECRETS = [
  'STRIPE_FINGERPRINT_KEY',
  'GEOCODING_API_KEY',
  'STATIC_MAPS_API_KEY',
  'CONSOLE_PREVIEW_KEY',
  'COOKIE_SIGNING_KEY',
  'RESUME_LINK_KEY',
  'LIFECYCLE_HMAC_KEY',
  'SUBSCRIBER_LINK_KEY',
  'ALERTS_HMAC_KEY',
  'AMPLITUDE_API_KEY',
  'META_ACCESS_TOKEN',
  'TIKTOK_ACCESS_TOKEN',
] as const satisfies readonly (keyof Bindings)[];

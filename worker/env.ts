import type { TFunction } from 'i18next';
// biome-ignore lint/style/noRestrictedImports: a type only (erased): the kit's optional bindings.
import type { PortalBindings } from '../portal/env';
import { COLLECTOR_PATH } from '../shared/analytics/tracking';
import type { InAppBrowser } from '../shared/in-app-browser';
import type { Theme } from '../shared/theme';
import type { AttributionBindings } from './attribution/env';
import type { QueuedMessage } from './collector/queued-event';
import type { FunnelConfig } from './config/load';
import type { DevKit } from './dev-kit';
import type { ActiveFlow } from './funnel/flow';
import type { VariantAssignment } from './funnel/split-test';
import type { Attribution } from './middleware/attribution';
import type { VisitorExperiments } from './middleware/experiments';
import type { PaymentProviderBindings } from './middleware/payment-providers';
import type { FirstTouch } from './routing/first-touch';
import type { ChosenRoute } from './routing/router';

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
   * Under `npm start` only: 'production' applies production's rate limits (worker/api/
   * rate-limits.ts) instead of development's, 20 times looser, which let one person walk the
   * funnel 50 times an hour from one machine (worker/rate-limits/rate-limit-profile.ts). Unset, or
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
   * malformed, 'US' (worker/stripe-account-country.ts).
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
   * by visitor (worker/experiments/store/experiment-shard.ts, assignment/visitor-shard.ts).
   */
  EXPERIMENT_SHARDS: DurableObjectNamespace<
    import('./experiments/store/experiment-shard').ExperimentShard
  >;
  /**
   * Who bought each subscription, and the lifecycle events and signatures seen for it, spread
   * over LEDGER_SHARD_COUNT SQLite Durable Objects by subscription (worker/lifecycle/ledger.ts).
   */
  SUBSCRIPTION_LEDGER: DurableObjectNamespace<import('./lifecycle/ledger').SubscriptionLedger>;
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
   * Secret. Signs the console's preview cookie (worker/funnel/preview.ts), so a visitor cannot
   * make one. Outside development preview links answer 503 without it.
   */
  CONSOLE_PREVIEW_KEY?: string;
  /**
   * Secret. Signs the cookies that decide a visitor's funnel and prices, for their visitor id:
   * their route (gf_route), first touch (gf_touch) and variants (gf_variant, gf_x), so a visitor
   * can neither write nor copy them (worker/middleware/signed-cookies.ts). In development a fixed
   * public key stands in. Unset elsewhere, no such cookie is trusted or written (fail closed):
   * each page takes the route and first touch from its own request, variants follow from the
   * visitor id alone, and `cookie_key_not_configured` is logged once per isolate.
   */
  COOKIE_SIGNING_KEY?: string;
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
  'ALERTS_HMAC_KEY',
  'AMPLITUDE_API_KEY',
  'META_ACCESS_TOKEN',
  'TIKTOK_ACCESS_TOKEN',
] as const satisfies readonly (keyof Bindings)[];

/**
 * What every request has, whichever sub-app answers it: set by the global middleware of
 * worker/app.tsx (request log, development kit, security headers) or, for `signedInUserId`, by
 * whatever signs a visitor in.
 */
export interface BaseVariables {
  requestId: string;
  /** Fields a handler adds to the request's log line (screen, error code, ...). */
  logFields: Record<string, string | number | boolean | null | undefined>;
  nonce: string;
  /** The development kit (worker/dev-kit.ts); undefined on the production worker. */
  devKit?: DevKit;
  /**
   * The user id this request signed the visitor in as (worker/session/session-cookie.ts), for its
   * signed cookies (worker/session/signed-in-user.ts).
   */
  signedInUserId?: string;
}

/** Set by the visitor middleware (worker/middleware/visitor.ts). */
export interface VisitorVariables {
  visitorId: string;
}

/** Set by the country middleware (worker/middleware/country.ts). */
export interface CountryVariables {
  /** ISO country code, or null when unknown (worker/middleware/country.ts). */
  country: string | null;
  /**
   * Set when a marketer's preview named the country with `?country=` (outside production only,
   * worker/middleware/country.ts): the preview's first touch and route are then taken from this
   * request, as a new visitor's from that country, not from the browser's kept cookies.
   */
  previewCountry?: boolean;
}

/** Set by the locale and translations middleware (worker/middleware/locale.ts, translations.ts). */
export interface LanguageVariables {
  language: string;
  /**
   * The page's copy in `language`, with any KV override in effect (worker/middleware/translations).
   */
  t: TFunction;
  theme: Theme;
}

/** Set by the funnel config middleware (worker/middleware/funnel-config.ts). */
export interface ConfigVariables {
  config: FunnelConfig;
}

/** Set by the route middleware (worker/middleware/route.ts). */
export interface RouteVariables {
  /** The visitor's route for the visit (worker/middleware/route.ts). */
  route: ChosenRoute;
  /** True when the route was chosen on this request, not read from `gf_route`. */
  routeChosen?: boolean;
  /** True when the route is the one a validly signed `gf_route` kept for the visit. */
  routeKept?: boolean;
}

/** Set by the experiments middleware (worker/middleware/experiments.ts). */
export interface ExperimentVariables {
  variant: VariantAssignment;
  flow: ActiveFlow;
  /** The visitor's experiments and the funnel they make (worker/middleware/experiments.ts). */
  experiments: VisitorExperiments;
  /**
   * Set on a marketer's preview of a variant, or of a route (`route`, its id) with the split's
   * default variant (worker/funnel/preview.ts): the page shows that variant's or route's flow,
   * assigns nothing, and sends nothing to analytics or the ad networks.
   */
  preview?: { variant: string; route?: string };
}

/** Set only on the funnel's pages (worker/middleware/in-app.ts, first-touch.ts, attribution.ts). */
export interface VisitVariables {
  /** The ad app whose own browser sent a page request (worker/middleware/in-app.ts), or null. */
  inApp: InAppBrowser | null;
  /** Where the visit came from, kept from its first page (worker/middleware/first-touch.ts). */
  firstTouch: FirstTouch;
  /** Click ids, ad cookies, consent and the tracking user data of a page request. */
  attribution: Attribution;
}

/**
 * Set by the console's access check (worker/console/access.ts), first of the console's own
 * middleware: no console handler runs without it.
 */
export interface ConsoleVariables {
  /** Who is using the console: the Access token's email, or the local author in development. */
  consoleAuthor: string;
}

/** A sub-app's Env: the one set of Bindings, and the Variables its middleware sets. */
export type EnvOf<V> = { Bindings: Bindings; Variables: V };

/** Everything a funnel page's middleware sets (worker/sub-apps/pages.ts). */
export interface Variables
  extends BaseVariables,
    VisitorVariables,
    CountryVariables,
    LanguageVariables,
    ConfigVariables,
    RouteVariables,
    ExperimentVariables,
    VisitVariables {}

/**
 * What the route middleware may rely on: it runs for the pages, the API and the app pages, where
 * only the pages know the language's first touch and in-app browser.
 */
export type RouteMiddlewareEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    CountryVariables &
    ConfigVariables &
    RouteVariables &
    Partial<LanguageVariables & VisitVariables>
>;

/** What the experiments middleware may rely on: where the route middleware runs, after it. */
export type ExperimentsMiddlewareEnv = EnvOf<RouteMiddlewareEnv['Variables'] & ExperimentVariables>;

/** The funnel's pages (worker/sub-apps/pages.ts). */
export type AppEnv = EnvOf<Variables>;

/**
 * The whole worker, as its global middleware and error handler see a request: whichever sub-app
 * answers it, anything beyond BaseVariables may be missing.
 */
export type RootEnv = EnvOf<BaseVariables & Partial<Omit<Variables, keyof BaseVariables>>>;

/** What every sub-app's Env extends: a helper generic over it serves every kind of request. */
export type BaseEnv = EnvOf<BaseVariables>;

/** The product API's lifecycle hooks (worker/sub-apps/lifecycle.ts): the global middleware only. */
export type LifecycleEnv = BaseEnv;

/** A request whose country is known: a helper generic over it serves the collector and after. */
export type CountryEnv = EnvOf<BaseVariables & CountryVariables>;

/** The analytics collector (worker/sub-apps/collector.ts). */
export type CollectorEnv = CountryEnv;

/** The third-party script and the consent banner's answer (worker/sub-apps/vendor.ts). */
export type VendorEnv = EnvOf<BaseVariables & VisitorVariables & CountryVariables>;

/** The marketers' console (worker/sub-apps/console.ts). */
export type ConsoleEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    CountryVariables &
    LanguageVariables &
    ConfigVariables &
    ConsoleVariables
>;

/** The browser's API (worker/sub-apps/browser-api.ts). */
export type ApiEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    CountryVariables &
    ConfigVariables &
    RouteVariables &
    ExperimentVariables
>;

/**
 * Pages outside the funnel's screens: the app login link, the development test gateway
 * (worker/sub-apps/other-pages.ts). Assigned like a page, without its visit (first touch, ads).
 */
export type OtherPagesEnv = EnvOf<
  BaseVariables &
    VisitorVariables &
    CountryVariables &
    LanguageVariables &
    ConfigVariables &
    RouteVariables &
    ExperimentVariables
>;

/**
 * The resume links (worker/sub-apps/resume.ts): no visitor middleware, the link sets the
 * visitor id it carries once it holds.
 */
export type ResumeEnv = EnvOf<
  BaseVariables & Partial<VisitorVariables> & CountryVariables & LanguageVariables & ConfigVariables
>;

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

/** Where the pages' tracker posts its batches, or null when analytics is switched off. */
export function analyticsCollector(env: Bindings): string | null {
  return env.ANALYTICS === 'off' ? null : COLLECTOR_PATH;
}

/**
 * `parse` of a binding's text, answered again without parsing while the text is the same: an
 * isolate serves many requests with the same bindings, so what a request reads from one is
 * worked out once (docs/performance.md, "A page's CPU on the server"). The answer is shared between
 * requests, so it is frozen, and callers read it only.
 */
export function parsedBinding<T>(
  parse: (text: string | undefined) => T,
): (text: string | undefined) => Readonly<T> {
  let last: { text: string | undefined; parsed: Readonly<T> } | undefined;
  return (text) => {
    if (last === undefined || last.text !== text) {
      last = { text, parsed: Object.freeze(parse(text)) };
    }
    return last.parsed;
  };
}

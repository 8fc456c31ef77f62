import type { MiddlewareHandler } from 'hono';
import { heatmapExcluded } from '../../shared/analytics/heatmap';
import type { PixelIds } from '../../shared/analytics/tracking';
import { type ComposedScreens, screenOfRef } from '../../shared/composed-screens';
import { TEST_GATEWAY_BASE } from '../../shared/test-gateway-protocol';
import { pixelIds } from '../attribution/tracking-data';
import { isDevelopment } from '../environment';
import { keptOrMade } from '../kept';
import {
  configuredPaymentProviders,
  type PaymentProvider,
  paymentProviderSources,
} from '../payment-providers';
import type { RootEnv } from '../request/envs';

function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Google Identity Services (the Continue with Google button, SPEC.md §2): the origins Google
 * documents for its button under a CSP, admitted only where GOOGLE_CLIENT_ID is set (without it
 * the button says it is not configured and never loads Google's script). Its script itself needs
 * no entry: our nonce'd module adds it, which 'strict-dynamic' admits.
 */
const GOOGLE_SIGN_IN = 'https://accounts.google.com/gsi/';
const GOOGLE_SIGN_IN_STYLE = 'https://accounts.google.com/gsi/style';

/**
 * The ad pixels (islands/pixels/), each admitted only where the deployment configured
 * it. Their scripts need no entry: our nonce'd module adds them ('strict-dynamic'), and what they
 * add in turn is trusted the same way. What they send goes by fetch, beacon or image:
 * - Meta: fbevents.js and its config come from connect.facebook.net, events go to
 *   www.facebook.com/tr (image or beacon).
 * - TikTok: its pixel's CSP page lists analytics.tiktok.com, analytics-ipv6.tiktokw.us and
 *   ads.tiktok.com for connect-src and img-src.
 * - Google Ads (gtag.js): Google's tag CSP guide names www.googletagmanager.com and
 *   www.google.com for the tag, www.googleadservices.com, googleads.g.doubleclick.net and
 *   www.google.com for conversions; the image pings that redirect on to a country's Google
 *   domain (www.google.co.uk, ...) cannot all be listed; the hops before it have delivered
 *   the hit.
 *   Its frames (remarketing on td.doubleclick.net, the tag's service-worker frame on
 *   www.googletagmanager.com) are the frame-src entries sites using gtag.js list.
 */
const TIKTOK_HOSTS = [
  'https://analytics.tiktok.com',
  'https://analytics-ipv6.tiktokw.us',
  'https://ads.tiktok.com',
];
const GOOGLE_ADS_HOSTS = [
  'https://www.googletagmanager.com',
  'https://www.google.com',
  'https://www.googleadservices.com',
  'https://googleads.g.doubleclick.net',
];
const AD_PIXEL_HOSTS = {
  meta: {
    connect: ['https://connect.facebook.net', 'https://www.facebook.com'],
    img: ['https://www.facebook.com'],
    frame: [],
  },
  tiktok: {
    connect: TIKTOK_HOSTS,
    img: TIKTOK_HOSTS,
    frame: [],
  },
  googleAds: {
    connect: GOOGLE_ADS_HOSTS,
    img: GOOGLE_ADS_HOSTS,
    frame: ['https://td.doubleclick.net', 'https://www.googletagmanager.com'],
  },
} satisfies Record<string, { connect: string[]; img: string[]; frame: string[] }>;

/** The hosts of the configured pixels, by directive. */
function adPixelHosts(pixels: PixelIds | null): {
  connect: string[];
  img: string[];
  frame: string[];
} {
  const configured = (['meta', 'tiktok', 'googleAds'] as const).filter((name) => pixels?.[name]);
  return {
    connect: configured.flatMap((name) => AD_PIXEL_HOSTS[name].connect),
    img: configured.flatMap((name) => AD_PIXEL_HOSTS[name].img),
    frame: configured.flatMap((name) => AD_PIXEL_HOSTS[name].frame),
  };
}

/**
 * Microsoft Clarity, the heatmap (islands/heatmap/), as Clarity's CSP page lists it: its loader
 * (www.clarity.ms/tag/…) and recorder (scripts.clarity.ms) need no entry ('strict-dynamic', as
 * above); the recorder uploads to a lettered host (`k.clarity.ms/collect`, which one varies), and
 * its cookie sync is an image on c.clarity.ms that goes on to c.bing.com.
 */
const CLARITY_HOSTS = ['https://*.clarity.ms', 'https://c.bing.com'];

/**
 * Whether a page may run the heatmap: a funnel screen (`/` is the flow's first) other than those
 * with card fields; a composed screen as the screen in code it starts from, given the content
 * that declares it (the funnel's config, on the context once its middleware ran). Elsewhere (the
 * checkouts and the paywalls composed from them, the test gateway's pages, the console) the
 * policy refuses Clarity's hosts even should something try to load it.
 */
function heatmapMayRun(path: string, content: ComposedScreens | undefined): boolean {
  if (path === '/') return true;
  const screen = screenOfRef(content ?? {}, path.slice(1));
  return screen !== null && !heatmapExcluded(screen);
}

/** What the policy admits besides our own origin, from what the deployment configured. */
export interface PolicyOrigins {
  /** The test gateway's own pages (development only), which the checkout frames. */
  framedBySelf?: boolean;
  pixels?: PixelIds | null;
  /** Unset: every provider the product uses (worker/payment-providers.ts). */
  paymentProviders?: readonly PaymentProvider[];
  /** Whether the Continue with Google button may load (GOOGLE_CLIENT_ID is set). */
  googleSignIn?: boolean;
  /** Whether this page may load the heatmap (CLARITY_PROJECT_ID set, heatmapMayRun). */
  heatmap?: boolean;
}

/** Each source once, in the order first named. */
function sourceList(...sources: string[]): string {
  return [...new Set(sources)].join(' ');
}

/**
 * Every third-party origin a page may frame, post a form to, fetch from or show an image of is
 * named here and comes from what the deployment configured: the payment providers of
 * PAYMENT_PROVIDERS, Google sign-in with GOOGLE_CLIENT_ID, each ad pixel with its id, the
 * heatmap with its id on the pages that may run it. No
 * directive ends in a bare `https:` unless Braintree's 3-D Secure is configured, which frames
 * and posts to any card issuer (payment-providers.ts says why no list can hold those).
 * `framedBySelf`: the test gateway's pages, which the checkout shows in same-origin iframes as
 * the real providers show theirs; every other page refuses to be framed.
 */
function policyText(nonce: string, origins: PolicyOrigins): string {
  const adPixels = adPixelHosts(origins.pixels ?? null);
  const providers = paymentProviderSources(
    origins.paymentProviders ?? configuredPaymentProviders({}),
  );
  const google = origins.googleSignIn ? [GOOGLE_SIGN_IN] : [];
  const googleStyle = origins.googleSignIn ? [GOOGLE_SIGN_IN_STYLE] : [];
  const heatmap = origins.heatmap ? CLARITY_HOSTS : [];
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce run, and what they import (strict-dynamic).
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    sourceList("style-src 'self' 'unsafe-inline'", ...googleStyle),
    sourceList("img-src 'self' data:", ...providers.img, ...adPixels.img, ...heatmap),
    "font-src 'self'",
    sourceList(
      "connect-src 'self'",
      ...google,
      ...providers.connect,
      ...adPixels.connect,
      ...heatmap,
    ),
    // 'self': the test gateway's card fields and challenge are same-origin iframes.
    sourceList("frame-src 'self'", ...google, ...providers.frame, ...adPixels.frame),
    sourceList("form-action 'self'", ...providers.formAction),
    "object-src 'none'",
    "base-uri 'none'",
    origins.framedBySelf ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy's text before and after its nonce, per set of origins. The origins come from the
 * deployment's bindings, so an isolate sees one or two sets (a page, and in development the
 * test gateway's framed pages), and each request only puts its nonce in between (docs/performance.md,
 * "A page's CPU on the server"). The cap only guards against bindings that change under a
 * long-lived isolate.
 */
const policiesAroundNonce = new Map<string, readonly [before: string, after: string]>();
const POLICIES_KEPT = 8;
const NONCE_SLOT = '\u0000';

function contentSecurityPolicy(nonce: string, origins: PolicyOrigins = {}): string {
  const [before, after] = keptOrMade(
    policiesAroundNonce,
    POLICIES_KEPT,
    JSON.stringify(origins),
    () => {
      const [start = '', end = ''] = policyText(NONCE_SLOT, origins).split(NONCE_SLOT);
      return [start, end] as const;
    },
  );
  return before + nonce + after;
}

/**
 * Every response gets HSTS, nosniff and a strict Referrer-Policy; HTML responses also get a
 * Content-Security-Policy with a fresh nonce, which the renderer puts on every script it emits.
 *
 * Why not `hono/secure-headers`: it sets its policy on every response, where ours goes on HTML
 * only; every directive here is computed per request (the deployment's pixels, payment
 * providers and Google sign-in, and framing allowed on the test gateway's pages only), which it
 * takes only as one callback per directive, each still calling the tables above; and its
 * defaults send eight headers we do not, one of which, `Cross-Origin-Opener-Policy:
 * same-origin`, cuts the link between our page and a sign-in or payment popup it opens (Google's,
 * PayPal's). Configured to say exactly this, it would keep none of its own behaviour.
 */
export function securityHeaders(): MiddlewareHandler<RootEnv> {
  return async function securityHeadersMiddleware(c, next) {
    const nonce = createNonce();
    c.set('nonce', nonce);
    await next();
    const headers = c.res.headers;
    if (headers.get('content-type')?.startsWith('text/html')) {
      const framedBySelf = c.req.path.startsWith(`${TEST_GATEWAY_BASE}/`) && isDevelopment(c.env);
      const env = c.env ?? {};
      const pixels = pixelIds(env);
      headers.set(
        'Content-Security-Policy',
        contentSecurityPolicy(nonce, {
          framedBySelf,
          pixels,
          paymentProviders: configuredPaymentProviders(env),
          googleSignIn: Boolean(c.env?.GOOGLE_CLIENT_ID?.trim()),
          heatmap: pixels.clarity !== null && heatmapMayRun(c.req.path, c.get('config')?.content),
        }),
      );
    }
    headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    headers.set('X-Content-Type-Options', 'nosniff');
    // A page whose URL holds a credential (the resume link's) asks for less and keeps it.
    if (!headers.has('Referrer-Policy')) {
      headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    }
  };
}

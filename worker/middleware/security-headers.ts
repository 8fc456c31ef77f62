import type { MiddlewareHandler } from 'hono';
import type { PixelIds } from '../../shared/analytics/tracking';
import { TEST_GATEWAY_BASE } from '../../test-gateway/frame-protocol';
import { type AppEnv, isDevelopment } from '../env';
import { pixelIds } from './attribution';

function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * Google Identity Services (the Continue with Google button, SPEC.md §2): the origins Google
 * documents for its button under a CSP. Its script itself needs no entry: our nonce'd module adds
 * it, which 'strict-dynamic' admits.
 */
const GOOGLE_SIGN_IN = 'https://accounts.google.com/gsi/';
const GOOGLE_SIGN_IN_STYLE = 'https://accounts.google.com/gsi/style';

/**
 * Stripe.js (card provider, SPEC.md §4 Payment, §7): Stripe's CSP guide. loadStripe injects
 * js.stripe.com from our nonce'd code ('strict-dynamic'); Elements, its 3-D Secure modal and the
 * wallet sheet live in frames of js.stripe.com and hooks.stripe.com.
 */
const STRIPE = {
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/**
 * braintree-web (alternate provider, SPEC.md §4 Alternate provider with 3-D Secure): the
 * directives of its "Using braintree-web with a Content Security Policy" page, sandbox and
 * production hosts alike (a staging portal hands out sandbox tokens). Its modules are bundled,
 * and Cardinal's songbird script is injected by them ('strict-dynamic').
 */
const BRAINTREE = {
  frame: ['https://assets.braintreegateway.com', 'https://*.cardinalcommerce.com'],
  connect: [
    'https://api.braintreegateway.com',
    'https://client-analytics.braintreegateway.com',
    'https://api.sandbox.braintreegateway.com',
    'https://client-analytics.sandbox.braintreegateway.com',
    'https://*.braintree-api.com',
    'https://*.cardinalcommerce.com',
    // PayPal through Braintree (islands/payments/providers/braintree-paypal.ts): the PayPal JS
    // SDK that paypal-checkout loads calls home, and its buttons show PayPal's images.
    'https://www.paypal.com',
    'https://www.sandbox.paypal.com',
  ],
  img: ['https://assets.braintreegateway.com', 'https://www.paypalobjects.com'],
};

/**
 * 3-D Secure 2 frames and posts to the card issuer's own ACS, whose URLs no list can hold:
 * Braintree's CSP page asks for `frame-src *` and `form-action *` and warns that blocking the
 * 3DS method step makes authentications fail. `https:` is that, minus plain http.
 */
const THREE_D_SECURE_ISSUERS = 'https:';

/**
 * The ad pixels (issue 6, islands/pixels/), each admitted only where the deployment configured
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
 * Frames (Google's remarketing frames on td.doubleclick.net) are already admitted by frame-src's
 * `https:` for 3-D Secure.
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
  },
  tiktok: {
    connect: TIKTOK_HOSTS,
    img: TIKTOK_HOSTS,
  },
  googleAds: { connect: GOOGLE_ADS_HOSTS, img: GOOGLE_ADS_HOSTS },
} satisfies Record<string, { connect: string[]; img: string[] }>;

/** The hosts of the configured pixels, by directive. */
function adPixelHosts(pixels: PixelIds | null): { connect: string[]; img: string[] } {
  const configured = (['meta', 'tiktok', 'googleAds'] as const).filter((name) => pixels?.[name]);
  return {
    connect: configured.flatMap((name) => AD_PIXEL_HOSTS[name].connect),
    img: configured.flatMap((name) => AD_PIXEL_HOSTS[name].img),
  };
}

/**
 * `framedBySelf`: the test gateway's own pages (outside production only), which the checkout
 * shows in same-origin iframes as the real providers show theirs; every other page refuses to
 * be framed.
 */
export function contentSecurityPolicy(
  nonce: string,
  framedBySelf = false,
  pixels: PixelIds | null = null,
): string {
  const adPixels = adPixelHosts(pixels);
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce run, and what they import (strict-dynamic).
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'unsafe-inline' ${GOOGLE_SIGN_IN_STYLE}`,
    ["img-src 'self' data:", ...BRAINTREE.img, ...adPixels.img].join(' '),
    "font-src 'self'",
    [
      "connect-src 'self'",
      GOOGLE_SIGN_IN,
      ...STRIPE.connect,
      ...BRAINTREE.connect,
      ...adPixels.connect,
    ].join(' '),
    // 'self': the test gateway's card fields and challenge are same-origin iframes.
    [
      "frame-src 'self'",
      GOOGLE_SIGN_IN,
      ...STRIPE.frame,
      ...BRAINTREE.frame,
      THREE_D_SECURE_ISSUERS,
    ].join(' '),
    `form-action 'self' ${THREE_D_SECURE_ISSUERS}`,
    "object-src 'none'",
    "base-uri 'none'",
    framedBySelf ? "frame-ancestors 'self'" : "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Every response gets HSTS, nosniff and a strict Referrer-Policy; HTML responses also get a
 * Content-Security-Policy with a fresh nonce, which the renderer puts on every script it emits.
 */
export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async function securityHeadersMiddleware(c, next) {
    const nonce = createNonce();
    c.set('nonce', nonce);
    await next();
    const headers = c.res.headers;
    if (headers.get('content-type')?.startsWith('text/html')) {
      const framedBySelf = c.req.path.startsWith(`${TEST_GATEWAY_BASE}/`) && isDevelopment(c.env);
      headers.set(
        'Content-Security-Policy',
        contentSecurityPolicy(nonce, framedBySelf, pixelIds(c.env ?? {})),
      );
    }
    headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  };
}

import type { MiddlewareHandler } from 'hono';
import { TEST_GATEWAY_BASE } from '../../test-gateway/frame-protocol';
import { type AppEnv, isProduction } from '../env';

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
 * `framedBySelf`: the test gateway's own pages (outside production only), which the checkout
 * shows in same-origin iframes as the real providers show theirs; every other page refuses to
 * be framed.
 */
export function contentSecurityPolicy(nonce: string, framedBySelf = false): string {
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce run, and what they import (strict-dynamic).
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'unsafe-inline' ${GOOGLE_SIGN_IN_STYLE}`,
    ["img-src 'self' data:", ...BRAINTREE.img].join(' '),
    "font-src 'self'",
    ["connect-src 'self'", GOOGLE_SIGN_IN, ...STRIPE.connect, ...BRAINTREE.connect].join(' '),
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
      const framedBySelf = c.req.path.startsWith(`${TEST_GATEWAY_BASE}/`) && !isProduction(c.env);
      headers.set('Content-Security-Policy', contentSecurityPolicy(nonce, framedBySelf));
    }
    headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  };
}

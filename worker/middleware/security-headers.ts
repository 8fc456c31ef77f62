import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

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

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // Only scripts carrying this response's nonce run, and what they import (strict-dynamic).
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'unsafe-inline' ${GOOGLE_SIGN_IN_STYLE}`,
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${GOOGLE_SIGN_IN}`,
    `frame-src ${GOOGLE_SIGN_IN}`,
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
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
      headers.set('Content-Security-Policy', contentSecurityPolicy(nonce));
    }
    headers.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
    headers.set('X-Content-Type-Options', 'nosniff');
    headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  };
}

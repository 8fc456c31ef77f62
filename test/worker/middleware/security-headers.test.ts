import { Hono } from 'hono';
import { expect, it } from 'vitest';
import type { AppEnv } from '../../../worker/env';
import { securityHeaders } from '../../../worker/middleware/security-headers';

const app = new Hono<AppEnv>();
app.use(securityHeaders());
app.get('/page', (c) => c.html(`<script nonce="${c.get('nonce')}"></script>`));
app.get('/data', (c) => c.json({ ok: true }));

it('gives an HTML page a CSP whose script nonce is fresh per request', async () => {
  const first = await app.request('/page');
  const csp = first.headers.get('content-security-policy') ?? '';
  const nonce = (await first.text()).match(/nonce="([^"]+)"/)?.[1];
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(csp).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic'`);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
    expect(csp).toContain(directive);
  }
  const second = await app.request('/page');
  expect(second.headers.get('content-security-policy')).not.toBe(csp);
});

/** The CSP as directive name → its source list. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

it('admits what Stripe, Braintree with 3-D Secure and Google document, and no script host', async () => {
  const csp = directives((await app.request('/page')).headers.get('content-security-policy') ?? '');
  // Stripe.js and Cardinal's songbird are injected by our nonce'd code: no host may run scripts.
  expect(csp.get('script-src')?.slice(1)).toEqual(["'strict-dynamic'"]);
  expect(csp.get('frame-src')).toEqual(
    expect.arrayContaining([
      "'self'",
      'https://accounts.google.com/gsi/',
      'https://js.stripe.com',
      'https://hooks.stripe.com',
      'https://assets.braintreegateway.com',
      'https://*.cardinalcommerce.com',
      // 3-D Secure 2: the issuer's ACS, any https origin (Braintree's CSP page).
      'https:',
    ]),
  );
  expect(csp.get('connect-src')).toEqual(
    expect.arrayContaining([
      "'self'",
      'https://accounts.google.com/gsi/',
      'https://api.stripe.com',
      'https://api.braintreegateway.com',
      'https://client-analytics.braintreegateway.com',
      'https://*.braintree-api.com',
      'https://*.cardinalcommerce.com',
    ]),
  );
  expect(csp.get('connect-src')).toContain('https://www.paypal.com');
  expect(csp.get('img-src')).toEqual([
    "'self'",
    'data:',
    'https://assets.braintreegateway.com',
    'https://www.paypalobjects.com',
  ]);
  expect(csp.get('form-action')).toEqual(["'self'", 'https:']);
  expect(csp.get('style-src')).toContain('https://accounts.google.com/gsi/style');
  // Only frames and form posts open to the issuers; fetches and everything else stay listed.
  for (const [name, sources] of csp) {
    expect(sources, name).not.toContain('*');
    expect(sources, name).not.toContain('http:');
    if (name !== 'frame-src' && name !== 'form-action')
      expect(sources, name).not.toContain('https:');
  }
});

it('sends HSTS, nosniff and a strict referrer policy on every response', async () => {
  for (const path of ['/page', '/data']) {
    const res = await app.request(path);
    expect(res.headers.get('strict-transport-security')).toBe(
      'max-age=63072000; includeSubDomains',
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  }
  expect((await app.request('/data')).headers.get('content-security-policy')).toBeNull();
});

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

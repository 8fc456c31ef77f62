import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../../../worker/middleware/security-headers';
import type { AppEnv } from '../../../worker/request/envs';

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

it('keeps each configuration its own policy, the nonce alone changing between requests', async () => {
  // The policy's text around the nonce is kept per set of origins: two deployments' bindings
  // taking turns in one isolate must each get theirs, and never the other's nonce.
  const stripe = { PAYMENT_PROVIDERS: 'stripe' };
  const paypal = { PAYMENT_PROVIDERS: 'paypal' };
  const answers = [];
  for (const env of [stripe, paypal, stripe, paypal]) {
    const response = await app.request('/page', undefined, env);
    const nonce = (await response.text()).match(/nonce="([^"]+)"/)?.[1] ?? '';
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`'nonce-${nonce}'`);
    answers.push({ nonce, rest: csp.replace(nonce, '') });
  }
  const [first, second, third, fourth] = answers;
  expect(first?.rest).toContain('https://api.stripe.com');
  expect(first?.rest).not.toContain('paypal');
  expect(second?.rest).toContain('https://*.paypal.com');
  expect(second?.rest).not.toContain('stripe');
  expect(third?.rest).toBe(first?.rest);
  expect(fourth?.rest).toBe(second?.rest);
  expect(new Set(answers.map(({ nonce }) => nonce)).size).toBe(4);
});

/** The page's CSP, as directive name → its source list, under the deployment's `env`. */
async function policyWith(env: Record<string, string> = {}): Promise<Map<string, string[]>> {
  const response = await app.request('/page', undefined, env);
  const csp = response.headers.get('content-security-policy') ?? '';
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

/** Each provider's documented hosts (payment-providers.ts names the documents). */
const STRIPE = {
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};
const BRAINTREE = {
  frame: ['https://assets.braintreegateway.com', 'https://*.cardinalcommerce.com'],
  connect: [
    'https://api.braintreegateway.com',
    'https://client-analytics.braintreegateway.com',
    'https://api.sandbox.braintreegateway.com',
    'https://client-analytics.sandbox.braintreegateway.com',
    'https://*.braintree-api.com',
    'https://*.cardinalcommerce.com',
    'https://*.cardinaltrusted.com',
  ],
};
const PAYPAL = { frame: ['https://*.paypal.com'], connect: ['https://*.paypal.com'] };
const GOOGLE_SIGN_IN = 'https://accounts.google.com/gsi/';

const ANY_PROVIDER_HOST = /stripe|braintree|cardinal|paypal/;
const hostsOf = (sources: string[] | undefined, pattern: RegExp) =>
  (sources ?? []).filter((source) => pattern.test(source));

describe('payment providers: exact hosts, for the configured ones only', () => {
  it('Stripe alone: its frames and API, and no bare https: in any directive', async () => {
    const policy = await policyWith({ PAYMENT_PROVIDERS: 'stripe' });
    expect(policy.get('frame-src')).toEqual(["'self'", ...STRIPE.frame]);
    expect(policy.get('connect-src')).toEqual(["'self'", ...STRIPE.connect]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    for (const [name, sources] of policy) {
      expect(sources, name).not.toContain('https:');
      expect(sources, name).not.toContain('*');
      expect(hostsOf(sources, /braintree|cardinal|paypal/), name).toEqual([]);
    }
  });

  it('PayPal and Stripe: PayPal’s frames and calls home join, still no bare https:', async () => {
    const policy = await policyWith({ PAYMENT_PROVIDERS: 'stripe, paypal' });
    expect(policy.get('frame-src')).toEqual(["'self'", ...STRIPE.frame, ...PAYPAL.frame]);
    expect(policy.get('connect-src')).toEqual(["'self'", ...STRIPE.connect, ...PAYPAL.connect]);
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'https://*.paypal.com',
      'https://*.paypalobjects.com',
    ]);
    for (const [name, sources] of policy) expect(sources, name).not.toContain('https:');
  });

  it('Braintree: hosted fields, Cardinal and its API; any https issuer only for frames and form posts (3-D Secure)', async () => {
    const policy = await policyWith({ PAYMENT_PROVIDERS: 'braintree' });
    expect(policy.get('frame-src')).toEqual(["'self'", ...BRAINTREE.frame, 'https:']);
    expect(policy.get('form-action')).toEqual(["'self'", 'https:']);
    expect(policy.get('connect-src')).toEqual(["'self'", ...BRAINTREE.connect]);
    expect(policy.get('img-src')).toEqual([
      "'self'",
      'data:',
      'https://assets.braintreegateway.com',
    ]);
    for (const [name, sources] of policy) {
      if (name !== 'frame-src' && name !== 'form-action') {
        expect(sources, name).not.toContain('https:');
      }
      expect(hostsOf(sources, /stripe|paypal/), name).toEqual([]);
    }
  });

  it('unset: the card providers the product uses (Stripe, Braintree), PayPal off (SPEC.md §9)', async () => {
    const policy = await policyWith();
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      ...STRIPE.frame,
      ...BRAINTREE.frame,
      'https:',
    ]);
    expect(policy.get('connect-src')).toEqual(["'self'", ...STRIPE.connect, ...BRAINTREE.connect]);
    for (const [name, sources] of policy) {
      expect(hostsOf(sources, /paypal/), name).toEqual([]);
    }
  });

  it('PayPal listed beside the card providers: its hosts join theirs', async () => {
    const policy = await policyWith({ PAYMENT_PROVIDERS: 'stripe,braintree,paypal' });
    expect(policy.get('frame-src')).toEqual([
      "'self'",
      ...STRIPE.frame,
      ...BRAINTREE.frame,
      'https:',
      ...PAYPAL.frame,
    ]);
    expect(policy.get('connect-src')).toEqual([
      "'self'",
      ...STRIPE.connect,
      ...BRAINTREE.connect,
      ...PAYPAL.connect,
    ]);
  });

  it('a list with only unknown names is taken as unset; unknown names beside known ones are dropped', async () => {
    const unset = await policyWith();
    const typo = await policyWith({ PAYMENT_PROVIDERS: 'strpie' });
    for (const name of ['frame-src', 'form-action', 'connect-src', 'img-src']) {
      expect(typo.get(name), name).toEqual(unset.get(name));
    }
    const policy = await policyWith({ PAYMENT_PROVIDERS: 'Stripe,adyen' });
    expect(policy.get('frame-src')).toEqual(["'self'", ...STRIPE.frame]);
  });

  it('never runs a provider’s script by host: our nonce admits what it adds', async () => {
    const policy = await policyWith();
    expect(policy.get('script-src')?.slice(1)).toEqual(["'strict-dynamic'"]);
    for (const [name, sources] of policy) {
      if (name !== 'frame-src' && name !== 'connect-src' && name !== 'img-src') {
        expect(hostsOf(sources, ANY_PROVIDER_HOST), name).toEqual([]);
      }
    }
  });
});

describe('Google sign-in: its origins only where GOOGLE_CLIENT_ID is set', () => {
  it('set: Google’s documented button origins', async () => {
    const policy = await policyWith({ GOOGLE_CLIENT_ID: '123-abc.apps.googleusercontent.com' });
    expect(policy.get('frame-src')).toContain(GOOGLE_SIGN_IN);
    expect(policy.get('connect-src')).toContain(GOOGLE_SIGN_IN);
    expect(policy.get('style-src')).toContain('https://accounts.google.com/gsi/style');
  });

  it('unset or blank: no Google origin (the button says it is not configured)', async () => {
    for (const env of [{}, { GOOGLE_CLIENT_ID: ' ' }] as Record<string, string>[]) {
      const policy = await policyWith(env);
      for (const [name, sources] of policy) {
        expect(hostsOf(sources, /accounts\.google\.com/), name).toEqual([]);
      }
    }
  });
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

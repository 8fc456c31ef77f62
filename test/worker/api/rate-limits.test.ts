import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../worker/env';
import type { RateLimitRule } from '../../../worker/rate-limits/rate-limit-gate';
import { checkRateLimits } from '../../../worker/rate-limits/rate-limit-gate';
import type { RateDecision } from '../../../worker/rate-limits/rate-limiter';
import { freshApp } from '../fetch-app';
import { islandProps } from '../page-html';
import { fakePortal, happyPortal, postJson, SIGNUP_BODY } from './fake-portal';
import { captureLogsPerTest } from './log-capture';

const logs = captureLogsPerTest();

const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';

function lookups(bindings: Partial<Cloudflare.Env> = {}) {
  const portal = fakePortal(happyPortal);
  const fetchApp = freshApp({ portalFetch: portal.portalFetch }, bindings);
  return {
    portal,
    /** A lookup as a browser sends it; a new visitor unless a cookie says otherwise. */
    lookup: (phone: string, headers: Record<string, string> = {}) =>
      fetchApp(`/api/phone-number-info/${encodeURIComponent(phone)}`, { headers }),
    signup: (headers: Record<string, string> = {}) =>
      fetchApp('/api/signup', postJson(SIGNUP_BODY, headers)),
  };
}

/** `count` numbers in as many different 1000-number blocks. */
function numbersInDistinctPrefixes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `+1${String(200 + i)}5550123`);
}

async function expectRateLimited(res: Response) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({ errors: { messages: [] }, code: 'rate_limited' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

describe('phone lookups (each texts a real person: SMS pumping)', () => {
  it('a burst of sequential numbers in one prefix is cut off after 5, whoever sends it', async () => {
    const { portal, lookup } = lookups();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 8; i++) {
      // A fresh visitor (no cookie) from a fresh address each time, as a pumping bot would.
      const res = await lookup(`+1555123400${i}`, { 'cf-connecting-ip': `198.51.100.${i + 1}` });
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await expectRateLimited(refused!)).toBeGreaterThan(3_500);
    expect(portal.seen).toHaveLength(5);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'rate_limited',
        call: 'phoneInfo',
        rule: 'lookup_numbers_per_prefix',
      }),
    );
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({ call: 'phoneInfo', error: 'rate_limited', status: 429 }),
    );
    // Meanwhile a visitor locating their number in another prefix, from one of the burst's
    // addresses, is not held back.
    expect((await lookup('+447400123456', { 'cf-connecting-ip': '198.51.100.8' })).status).toBe(
      200,
    );
  });

  it('the searching screen has the limit text to show the visitor a 429 stands for', async () => {
    // The island shows this text on a refused lookup (test/unit/searching/SearchProgress.test.tsx).
    const page = await freshApp()('/searching?skip_split=true');
    const props = islandProps(await page.text(), 'SearchProgress') as {
      labels: { errors: Record<string, string> };
    };
    expect(props.labels.errors.rate_limited).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    );
  });

  it("a visitor's lookup, and the same number again after reloads, is never limited", async () => {
    const { lookup } = lookups();
    const visitor = { cookie: `userUuid=${VISITOR}`, 'cf-connecting-ip': '203.0.113.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await lookup('+15551234567', visitor)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('one visitor gets 10 lookups an hour, wherever the numbers are', async () => {
    const { lookup } = lookups();
    const visitor = { cookie: `userUuid=${VISITOR}`, 'cf-connecting-ip': '203.0.113.7' };
    const statuses: number[] = [];
    for (const phone of numbersInDistinctPrefixes(11))
      statuses.push((await lookup(phone, visitor)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses[10]).toBe(429);
    // Another visitor on the same address is not held back by the first.
    expect((await lookup('+15551234567', { 'cf-connecting-ip': '203.0.113.7' })).status).toBe(200);
  });

  // slow: 31 lookups through the app, each counted by the rate limiter's Durable Object
  it('one address gets 30 distinct numbers an hour, whatever cookies it sends', async () => {
    const { lookup } = lookups();
    const numbers = numbersInDistinctPrefixes(31);
    const address = { 'cf-connecting-ip': '203.0.113.9' };
    for (const phone of numbers.slice(0, 30))
      expect((await lookup(phone, address)).status).toBe(200);
    await expectRateLimited(await lookup(numbers[30]!, address));
    // A number this address already looked up does not count again.
    expect((await lookup(numbers[3]!, address)).status).toBe(200);
    expect((await lookup(numbers[30]!, { 'cf-connecting-ip': '203.0.113.10' })).status).toBe(200);
  });

  // slow: 31 lookups through the app, each counted by the rate limiter's Durable Object
  it('requests without an address share one counter rather than escaping it', async () => {
    const { lookup } = lookups();
    const numbers = numbersInDistinctPrefixes(31);
    for (const phone of numbers.slice(0, 30)) await lookup(phone);
    expect((await lookup(numbers[30]!)).status).toBe(429);
  });
});

describe('sign-up', () => {
  it('one visitor gets 5 sign-ups in 10 minutes', async () => {
    const { signup, portal } = lookups();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await signup({ cookie: `userUuid=${VISITOR}`, 'cf-connecting-ip': '203.0.113.7' })).status,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect(portal.seen).toHaveLength(5);
  });

  it('one address gets 20 sign-ups an hour across visitors', async () => {
    const { signup } = lookups();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await signup({ 'cf-connecting-ip': '203.0.113.8' })).status);
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe('a limiter that fails', () => {
  const brokenLimiter = {
    idFromName: (name: string) => ({ name }),
    get: () => ({
      hit: () => Promise.reject(new Error('Durable Object reset because its code was updated')),
    }),
  } as unknown as Bindings['RATE_LIMITER'];

  it('lets visitors through (fails open) and logs it', async () => {
    const { lookup } = lookups({ RATE_LIMITER: brokenLimiter });
    expect((await lookup('+15551234567')).status).toBe(200);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'rate_limiter_failed',
        call: 'phoneInfo',
        rule: 'lookup_per_visitor',
      }),
    );
  });
});

describe('checkRateLimits', () => {
  const rules: RateLimitRule[] = [
    { name: 'a', limit: 1, windowMs: 1_000, key: () => 'k', counts: 'each', code: 'rate_limited' },
    { name: 'b', limit: 1, windowMs: 1_000, key: () => 'k', counts: 'each', code: 'rate_limited' },
    { name: 'c', limit: 1, windowMs: 1_000, key: () => 'k', counts: 'each', code: 'rate_limited' },
    {
      name: 'skipped',
      limit: 1,
      windowMs: 1_000,
      key: () => null,
      counts: 'each',
      code: 'rate_limited',
    },
  ];
  const subject = { visitorId: 'v', ip: 'unknown', phone: null };

  /** A namespace whose counters answer what the test says, by key. */
  function scriptedLimiter(answers: Record<string, () => Promise<RateDecision>>) {
    const keys: string[] = [];
    const namespace = {
      idFromName: (name: string) => name,
      get: (key: string) => ({
        hit: () => {
          keys.push(key);
          return answers[key]!();
        },
      }),
    } as unknown as Bindings['RATE_LIMITER'];
    return { keys, namespace };
  }

  it('asks every applicable counter, and the longest Retry-After wins', async () => {
    const { keys, namespace } = scriptedLimiter({
      'a:k': async () => ({ allowed: false, retryAfterSeconds: 30 }),
      'b:k': async () => ({ allowed: false, retryAfterSeconds: 900 }),
      'c:k': async () => ({ allowed: true, retryAfterSeconds: 0 }),
    });
    const outcome = await checkRateLimits(namespace, rules, subject);
    expect(keys.sort()).toEqual(['a:k', 'b:k', 'c:k']);
    expect(outcome).toEqual({
      refused: { rule: 'b', code: 'rate_limited', retryAfterSeconds: 900 },
      failed: [],
    });
  });

  it('a counter that hangs counts as failed after the timeout, and the others still decide', async () => {
    const { namespace } = scriptedLimiter({
      'a:k': () => new Promise(() => {}),
      'b:k': async () => ({ allowed: true, retryAfterSeconds: 0 }),
      'c:k': async () => ({ allowed: false, retryAfterSeconds: 5 }),
    });
    const outcome = await checkRateLimits(namespace, rules, subject, { timeoutMs: 20 });
    expect(outcome).toEqual({
      refused: { rule: 'c', code: 'rate_limited', retryAfterSeconds: 5 },
      failed: [{ rule: 'a', detail: 'no answer within 20 ms' }],
    });
  });
});

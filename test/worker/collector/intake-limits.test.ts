import { describe, expect, it, vi } from 'vitest';
import { CollectorAnswer } from '../../../shared/analytics/batch';
import { batchesPerIp, batchesPerVisitor } from '../../../worker/collector/intake-limits';
import type { RateLimitRule } from '../../../worker/rate-limits/rate-limit-gate';
import { freshApp, ORIGIN } from '../fetch-app';
import { anEvent, freshEventsDbPerTest, NOW } from './fixtures';
import { recordingQueue } from './recording-queue';

/**
 * The collector under abuse: `POST /e` takes a limited number of batches a minute per
 * visitor and per address, refuses the rest with 429 and Retry-After (never a 5xx), and a real
 * visitor caught behind a flood from their address gets every event in once it has passed.
 */

const logs = freshEventsDbPerTest();

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: ORIGIN };

/**
 * Counters given ten seconds where production gives two (LIMITER_TIMEOUT_MS): these tests are
 * about the limits, and twelve fresh Durable Objects at once on a busy two-core machine once took
 * longer than two seconds, which the collector rightly answers with 503.
 */
const PATIENT_MS = 10_000;

function collector(rules?: readonly RateLimitRule[]) {
  const queue = recordingQueue();
  const fetchApp = freshApp(
    { now: () => NOW, collectorLimits: { rules, timeoutMs: PATIENT_MS } },
    { EVENTS_QUEUE: queue.queue },
  );
  const post = (headers: Record<string, string>, events = [anEvent()]) =>
    fetchApp('/e', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...SAME_ORIGIN, ...headers },
      body: JSON.stringify({ events }),
    });
  return { post, queue };
}

const visitorCookie = (id: string) => ({ cookie: `userUuid=${id}` });

describe('batch limits', () => {
  it('one visitor: the 60th batch in a minute is taken, the 61st refused with Retry-After', async () => {
    const { post } = collector();
    const headers = { ...visitorCookie(crypto.randomUUID()), 'cf-connecting-ip': '203.0.113.20' };
    const statuses: number[] = [];
    for (let n = 0; n < batchesPerVisitor.limit; n += 1)
      statuses.push((await post(headers)).status);
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await post(headers);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(logs.lines().at(-1)).toMatchObject({
      path: '/e',
      status: 429,
      error: 'rate_limited',
      rule: 'collector_batches_per_visitor',
    });
  });

  it('one address, a fresh cookie (or none) each time: up to its limit taken, then 429s and never a 5xx', async () => {
    // The address rule as it is, but for its limit: 600 requests would only slow the suite.
    const { post } = collector([batchesPerVisitor, { ...batchesPerIp, limit: 30 }]);
    const ip = { 'cf-connecting-ip': '203.0.113.21' };
    const statuses: number[] = [];
    for (let n = 0; n < 45; n += 1) {
      const cookie = n % 2 === 0 ? visitorCookie(crypto.randomUUID()) : {};
      statuses.push((await post({ ...ip, ...cookie })).status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
    expect(logs.lines().at(-1)).toMatchObject({ rule: 'collector_batches_per_ip' });
  });
});

describe('a real visitor behind a flood from the same address', () => {
  const WINDOW_MS = 3_000;

  it('is refused while the flood fills the window, and gets every event in once it has passed', async () => {
    // The real rules with a three-second window, so it passes in seconds, not a minute. One
    // second was too short: on a busy machine the flood itself outlasted it, and its first
    // batch left the window before the sixth arrived.
    const short = [batchesPerVisitor, batchesPerIp].map((rule) => ({
      ...rule,
      limit: rule === batchesPerIp ? 5 : rule.limit,
      windowMs: WINDOW_MS,
    }));
    const { post, queue } = collector(short);
    const shared = { 'cf-connecting-ip': '203.0.113.22' };
    const flood = await Promise.all(
      Array.from({ length: 12 }, () => post({ ...shared, ...visitorCookie(crypto.randomUUID()) })),
    );
    expect(flood.map((res) => res.status).sort()).toEqual([
      ...Array(5).fill(200),
      ...Array(7).fill(429),
    ]);

    const visitor = { ...shared, ...visitorCookie(crypto.randomUUID()) };
    const events = [anEvent(), anEvent(), anEvent()];
    const refusedAt = Date.now();
    const refused = await post(visitor, events);
    expect(refused.status).toBe(429);
    // The tracker keeps the batch (islands/analytics/uploader.ts: 429 is kept) and sends it again.
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(WINDOW_MS / 1000);
    // Sent again, as the tracker does, until the window has passed: refused until then, taken
    // once it has (not before Retry-After's whole seconds less the one it rounded up).
    const taken = await vi.waitFor(
      async () => {
        const again = await post(visitor, events);
        if (again.status !== 429) return again;
        throw new Error(`still refused, Retry-After ${again.headers.get('retry-after')}`);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(taken.status).toBe(200);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual((wait - 1) * 1000);
    expect(CollectorAnswer.parse(await taken.json())).toEqual({ accepted: 3, duplicates: 0 });
    const queued = new Set(queue.events.map((message) => message.event.insert_id));
    expect(events.every((event) => queued.has(event.insert_id))).toBe(true);
  });
});

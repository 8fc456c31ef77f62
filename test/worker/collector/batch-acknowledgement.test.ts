import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACK_COOKIE,
  ACK_KEPT,
  acknowledgedIds,
  isBatchId,
} from '../../../shared/analytics/acknowledgement';
import { ANALYTICS_LIMITS } from '../../../shared/analytics/limits';
import { batchesPerVisitor } from '../../../worker/collector/intake-limits';
import type { RateLimitRule } from '../../../worker/rate-limits/rate-limit-gate';
import { freshApp, ORIGIN } from '../fetch-app';
import { anEvent, freshEventsDbPerTest, NOW, VISITOR } from './fixtures';
import { recordingQueue } from './recording-queue';

/**
 * `POST /e?b=<batch id>` acknowledges its batch in the `gf_ack` cookie of its answer, so that a
 * later page of the visitor forgets what a beacon delivered and sends again what it did not. The
 * acknowledgement is the visitor's own: nothing is stored on the server, no other site can get
 * one set, and no flood makes it grow.
 */

freshEventsDbPerTest();

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: ORIGIN };
const BATCH = '0a1b2c3d4e5f';
const OTHER = 'ffeeddccbbaa';

function collector(rules?: readonly RateLimitRule[]) {
  const queue = recordingQueue();
  const fetchApp = freshApp(
    { now: () => NOW, collectorLimits: { rules } },
    { EVENTS_QUEUE: queue.queue },
  );
  const post = (
    query: string,
    options: { body?: string; headers?: Record<string, string>; cookie?: string } = {},
  ) =>
    fetchApp(`/e${query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...SAME_ORIGIN,
        cookie: `userUuid=${VISITOR}${options.cookie ? `; ${options.cookie}` : ''}`,
        ...options.headers,
      },
      body: options.body ?? JSON.stringify({ events: [anEvent()] }),
    });
  return { post, queue };
}

/** The gf_ack Set-Cookie line of an answer, or undefined. */
const ackLine = (res: Response) =>
  res.headers.getSetCookie().find((line) => line.startsWith(`${ACK_COOKIE}=`));

/** The ids the answer's gf_ack cookie holds; null when it sets none. */
function ackedIds(res: Response): string[] | null {
  const line = ackLine(res);
  return line === undefined
    ? null
    : line
        .split(';')[0]!
        .slice(ACK_COOKIE.length + 1)
        .split('.');
}

describe('a batch the collector is done with is acknowledged on its answer', () => {
  it('a taken batch: its id in gf_ack, readable by the page, same-site only, for 7 days', async () => {
    const { post, queue } = collector();
    const res = await post(`?b=${BATCH}`);
    expect(res.status).toBe(200);
    expect(queue.events).toHaveLength(1);
    expect(res.headers.getSetCookie()).toEqual([
      `${ACK_COOKIE}=${BATCH}; Max-Age=604800; Path=/; Secure; SameSite=Strict`,
    ]);
  });

  it('a batch sent again (all duplicates) and an invalid one are acknowledged: resending is useless', async () => {
    const { post } = collector();
    const body = JSON.stringify({ events: [anEvent()] });
    await post(`?b=${BATCH}`, { body });
    const again = await post(`?b=${OTHER}`, { body });
    expect(await again.json()).toEqual({ accepted: 0, duplicates: 1 });
    expect(ackedIds(again)).toEqual([OTHER]);
    const invalid = await post(`?b=${BATCH}`, { body: '{"events":[}' });
    expect(invalid.status).toBe(400);
    expect(ackedIds(invalid)).toEqual([BATCH]);
  });

  it('adds to the acknowledgements the browser has not read yet', async () => {
    const { post } = collector();
    const res = await post(`?b=${BATCH}`, { cookie: `${ACK_COOKIE}=${OTHER}` });
    expect(ackedIds(res)).toEqual([OTHER, BATCH]);
  });

  it('a request without a batch id (an older tracker) sets no cookie', async () => {
    const { post } = collector();
    const res = await post('');
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe('a batch that must come again is not acknowledged', () => {
  it('over its visitor’s limit (429)', async () => {
    const { post, queue } = collector([{ ...batchesPerVisitor, limit: 1 }]);
    expect(ackedIds(await post(`?b=${OTHER}`))).toEqual([OTHER]);
    const refused = await post(`?b=${BATCH}`, { body: JSON.stringify({ events: [anEvent()] }) });
    expect(refused.status).toBe(429);
    expect(ackLine(refused)).toBeUndefined();
    expect(queue.events).toHaveLength(1);
  });

  it('too large (413): the tracker can still send its events in smaller batches', async () => {
    const { post } = collector();
    const big = JSON.stringify({
      events: [anEvent({ event_properties: { text: 'x'.repeat(ANALYTICS_LIMITS.maxBatchBytes) } })],
    });
    const res = await post(`?b=${BATCH}`, { body: big });
    expect(res.status).toBe(413);
    expect(ackLine(res)).toBeUndefined();
  });
});

describe('what an attacker can do with it', () => {
  it('another site’s page cannot get a batch acknowledged in a visitor’s browser', async () => {
    const { post, queue } = collector();
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site', origin: 'https://shop.example' },
    ]) {
      const res = await post(`?b=${BATCH}`, { headers });
      expect(res.status).toBe(403);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(queue.events).toEqual([]);
  });

  it('a batch id that is not 12 hex digits acknowledges nothing', async () => {
    const { post } = collector();
    for (const query of [
      '?b=0A1B2C3D4E5F',
      '?b=0a1b2c3d4e5',
      '?b=0a1b2c3d4e5f0',
      '?b=x;Path=/e',
      '?B=0a1b2c3d4e5f',
    ]) {
      const res = await post(query);
      expect(res.status, query).toBe(200);
      expect(ackLine(res), query).toBeUndefined();
    }
  });

  it('whatever cookie a request brings, the answer holds at most ACK_KEPT valid ids, the new one last', async () => {
    const { post } = collector();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.stringMatching(/^[0-9a-f]{12}$/), fc.string({ maxLength: 20 })), {
          maxLength: 40,
        }),
        fc.stringMatching(/^[0-9a-f]{12}$/),
        async (earlier, batch) => {
          const value = earlier.join('.').replace(/[;,\s"\\]/g, '');
          const res = await post(`?b=${batch}`, { cookie: `${ACK_COOKIE}=${value}` });
          const ids = ackedIds(res) ?? [];
          expect(ids.length).toBeLessThanOrEqual(ACK_KEPT);
          expect(ids.every(isBatchId)).toBe(true);
          expect(ids.at(-1)).toBe(batch);
          expect(new Set(ids).size).toBe(ids.length);
          // The ids kept are the latest valid ones the browser had.
          expect(ids.slice(0, -1)).toEqual(
            acknowledgedIds(value)
              .filter((id) => id !== batch)
              .slice(-(ACK_KEPT - 1)),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a flood of batches keeps the cookie at ACK_KEPT ids, and the limits still apply', async () => {
    const { post } = collector([{ ...batchesPerVisitor, limit: 12 }]);
    let cookie = '';
    const statuses: number[] = [];
    for (let n = 0; n < 15; n++) {
      const batch = n.toString(16).padStart(12, '0');
      const res = await post(`?b=${batch}`, { cookie: `${ACK_COOKIE}=${cookie}` });
      statuses.push(res.status);
      cookie = ackedIds(res)?.join('.') ?? cookie;
    }
    expect(statuses).toEqual([...Array(12).fill(200), 429, 429, 429]);
    expect(cookie.split('.')).toHaveLength(ACK_KEPT);
    expect(cookie.length).toBeLessThanOrEqual(ACK_KEPT * 13);
  });
});

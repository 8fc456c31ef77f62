import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENCH_LIFECYCLE_KEY,
  renewEverySubscription,
} from '../../../scripts/bench/data/money-events';
import type { PortalServer } from '../../../scripts/bench/data/portal-server';
import {
  isFresh,
  matchingSignature,
  readSignatureHeader,
} from '../../../shared/api/hook-signature';
import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';

/**
 * The data benchmark's renewals, refunds and chargebacks reach the worker as the product API's
 * own would: each a body the portal kept, signed with the key the benchmark's worker holds,
 * posted to the lifecycle hook; a purchase that cannot renew is skipped, the shares refunded and
 * charged back are rounded up, and a refusal is reported, never dropped.
 */

interface Received {
  path: string;
  body: string;
  signedRightly: boolean;
}

const received: Received[] = [];
let refuseNext = false;
let worker: URL;
const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const reading = readSignatureHeader(
    String(request.headers[LIFECYCLE_SIGNATURE_HEADER.toLowerCase()]),
  );
  const signedRightly =
    reading.ok &&
    isFresh(reading.header.timestamp, Date.now()) &&
    (await matchingSignature(BENCH_LIFECYCLE_KEY, reading.header, body)) !== null;
  received.push({ path: request.url ?? '', body, signedRightly });
  const refused = refuseNext;
  refuseNext = false;
  response.writeHead(refused ? 409 : 200, { 'content-type': 'application/json' });
  response.end(refused ? '{"error":"refused"}' : '{"ok":true}');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  worker = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * A portal of renewing subscriptions (two unless `renewing` names them) and a one-time guide,
 * numbering the bodies it keeps.
 */
function portalOf(kept: string[], renewing = ['sub_main', 'sub_upsell']): PortalServer {
  return {
    url: 'http://portal',
    subscriptionIds: async () => [renewing[0] ?? '', 'sub_guide', ...renewing.slice(1)],
    async lifecycleBody(subscription, type) {
      if (subscription === 'sub_guide') return null;
      const body = JSON.stringify({ type, subscription_id: subscription, n: kept.length });
      kept.push(body);
      return body;
    },
    stop: async () => {},
  };
}

describe("the data benchmark's renewals", () => {
  it('posts each kept renewal and the cancellation, signed with the worker’s key, to the hook; skips a guide', async () => {
    received.length = 0;
    const kept: string[] = [];
    const sent = await renewEverySubscription(portalOf(kept), worker, {
      renewals: 3,
      refundShare: 0,
      chargebackShare: 0,
    });
    expect(sent).toEqual({
      subscriptions: 3,
      notRenewing: 1,
      sent: 6,
      refunded: 0,
      chargedBack: 0,
      cancelled: 2,
      failed: [],
    });
    expect(received.map(({ body }) => body)).toEqual(kept);
    expect(received.every(({ path }) => path === LIFECYCLE_PATH)).toBe(true);
    expect(received.every(({ signedRightly }) => signedRightly)).toBe(true);
    // Each renewing subscription's life: three renewals, then its cancellation.
    expect(
      kept.filter((body) => body.includes('"sub_main"')).map((body) => JSON.parse(body).type),
    ).toEqual(['renewal', 'renewal', 'renewal', 'cancellation']);
  });

  it('reports a renewal the worker refused, with its answer', async () => {
    received.length = 0;
    refuseNext = true;
    const sent = await renewEverySubscription(portalOf([]), worker, {
      renewals: 1,
      refundShare: 0,
      chargebackShare: 0,
    });
    expect(sent.sent).toBe(1);
    expect(sent.cancelled).toBe(2);
    expect(sent.failed).toEqual(['renewal of sub_main: 409 {"error":"refused"}']);
  });

  it('refunds and charges back their shares, rounded up, each after the renewals and before the end', async () => {
    received.length = 0;
    const kept: string[] = [];
    const renewing = Array.from({ length: 30 }, (_, index) => `sub_${index}`);
    const sent = await renewEverySubscription(portalOf(kept, renewing), worker, {
      renewals: 1,
      refundShare: 0.05,
      chargebackShare: 0.01,
    });
    // 5 % of 30 is 1.5, rounded up 2: the 1st and the 21st; 1 % is 0.3, rounded up 1: the 2nd.
    expect(sent).toMatchObject({ refunded: 2, chargedBack: 1, cancelled: 30, failed: [] });
    const typesOf = (id: string) =>
      kept
        .filter((body) => JSON.parse(body).subscription_id === id)
        .map((body) => JSON.parse(body).type);
    expect(typesOf('sub_0')).toEqual(['renewal', 'refund', 'cancellation']);
    expect(typesOf('sub_1')).toEqual(['renewal', 'chargeback', 'cancellation']);
    expect(typesOf('sub_20')).toEqual(['renewal', 'refund', 'cancellation']);
    expect(typesOf('sub_2')).toEqual(['renewal', 'cancellation']);
    expect(received.map(({ body }) => body)).toEqual(kept);
  });
});

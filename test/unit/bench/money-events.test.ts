import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BENCH_LIFECYCLE_KEY,
  renewEverySubscription,
} from '../../../scripts/bench/data/money-events';
import type { PortalServer } from '../../../scripts/bench/data/portal-server';
import { BENCH_SUBSCRIBER_LINK_KEY } from '../../../scripts/bench/data/save-offer';
import {
  isFresh,
  matchingSignature,
  readSignatureHeader,
} from '../../../shared/api/hook-signature';
import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import { verifySubscriberLink } from '../../../worker/subscriber-links/link-token';

/**
 * The data benchmark's renewals, refunds and chargebacks reach the worker as the product API's
 * own would: each a body the portal kept, signed with the key the benchmark's worker holds,
 * posted to the lifecycle hook; a purchase that cannot renew is skipped, the shares refunded and
 * charged back are rounded up, and a refusal is reported, never dropped. Each renewing
 * subscriber then leaves through its manage link's page, as a person would: the page, the
 * cancel's confirm, and the save offer taken where it is made and the share says, else the
 * cancel with a reason, the product API's cancellation following it.
 */

interface Received {
  path: string;
  body: string;
  signedRightly: boolean;
}

/** A request to a subscriber's page, and the subscription its link names, if it verifies. */
interface PageRequest {
  method: string;
  path: string;
  subscription: string | null;
  origin: string | undefined;
  address: string | undefined;
  body: string;
}

const received: Received[] = [];
const pages: PageRequest[] = [];
/** The subscriptions whose cancel's confirm makes the save offer (its test's variant). */
let offered = new Set<string>();
let refuseNext = false;
let worker: URL;

/** The worker's subscriber page as far as leaving goes: a confirm with the offer's form or not. */
async function answerPage(
  request: { method?: string; url?: string; headers: Record<string, unknown> },
  body: string,
): Promise<{ status: number; html: string }> {
  const path = request.url ?? '';
  const token = /^\/subscription\/([^/]+)/.exec(path)?.[1] ?? '';
  const verdict = await verifySubscriberLink(BENCH_SUBSCRIBER_LINK_KEY, token, Date.now());
  const subscription = verdict.ok ? verdict.link.subscriptionId : null;
  pages.push({
    method: request.method ?? '',
    path: path.replace(token, '<token>'),
    subscription,
    origin: request.headers.origin as string | undefined,
    address: request.headers['cf-connecting-ip'] as string | undefined,
    body,
  });
  // The product API no longer knows sub_gone: the worker's page says so.
  if (subscription === null || subscription === 'sub_gone') return { status: 404, html: 'unknown' };
  const offer = offered.has(subscription)
    ? `<form method="post" action="/subscription/${token}/save-offer"></form>`
    : '';
  return {
    status: 200,
    html: `<form method="post" action="/subscription/${token}/cancel"></form>${offer}`,
  };
}

const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  if (request.url?.startsWith('/subscription/')) {
    const page = await answerPage(request, body);
    response.writeHead(page.status, { 'content-type': 'text/html' });
    response.end(page.html);
    return;
  }
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
      saveShare: 0,
    });
    expect(sent).toEqual({
      subscriptions: 3,
      notRenewing: 1,
      sent: 6,
      refunded: 0,
      chargedBack: 0,
      cancelled: 2,
      saved: 0,
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
      saveShare: 0,
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
      saveShare: 0,
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

  it('ends each renewing subscription on its page: the offer taken where made and the share says, else a cancel with a reason', async () => {
    received.length = 0;
    pages.length = 0;
    offered = new Set(['sub_1', 'sub_2', 'sub_3']);
    const kept: string[] = [];
    const renewing = ['sub_0', 'sub_1', 'sub_2', 'sub_3'];
    const sent = await renewEverySubscription(portalOf(kept, renewing), worker, {
      renewals: 1,
      refundShare: 0,
      chargebackShare: 0,
      saveShare: 0.5,
    });
    // Half of four leavers, 2: sub_0 would take it but is not offered it; sub_1 and sub_2 take
    // it; sub_3, offered it, is past the share and cancels.
    expect(sent).toMatchObject({ saved: 2, cancelled: 2, failed: [] });
    const steps = (id: string) =>
      pages.filter((page) => page.subscription === id).map((page) => `${page.method} ${page.path}`);
    expect(steps('sub_1')).toEqual([
      'GET /subscription/<token>',
      'GET /subscription/<token>/cancel',
      'POST /subscription/<token>/save-offer',
    ]);
    expect(steps('sub_3')).toEqual([
      'GET /subscription/<token>',
      'GET /subscription/<token>/cancel',
      'POST /subscription/<token>/cancel',
    ]);
    const posts = pages.filter((page) => page.method === 'POST');
    // From the page's own origin (the same-origin rule), each subscriber from an address of its own.
    expect(posts.every((page) => page.origin === worker.origin)).toBe(true);
    expect(new Set(pages.map((page) => page.address)).size).toBe(4);
    expect(posts.filter((page) => page.path.endsWith('/cancel')).map((page) => page.body)).toEqual([
      expect.stringMatching(/^reason=[a-z_]+$/),
      expect.stringMatching(/^reason=[a-z_]+$/),
    ]);
    // The product API's cancellation follows a cancel only: the saved stay subscribed.
    const ended = kept
      .map((body) => JSON.parse(body))
      .filter((body) => body.type === 'cancellation');
    expect(ended.map((body) => body.subscription_id)).toEqual(['sub_0', 'sub_3']);
    offered = new Set();
  });

  it('reports a page that refused the subscriber, and sends no cancellation for it', async () => {
    pages.length = 0;
    const kept: string[] = [];
    const sent = await renewEverySubscription(portalOf(kept, ['sub_gone']), worker, {
      renewals: 1,
      refundShare: 0,
      chargebackShare: 0,
      saveShare: 0,
    });
    expect(sent.cancelled).toBe(0);
    expect(sent.failed).toEqual([
      'leaving sub_gone through its page: Error: GET /subscription/<token>: 404',
    ]);
    expect(kept.map((body) => JSON.parse(body).type)).toEqual(['renewal']);
  });
});

import { expect } from 'vitest';
import { originOf } from '../../islands/analytics/tracker';
import { createTracker, type Tracker } from '../../islands/analytics/tracker-core';
import { signUp } from '../../islands/api/client';
import type { PlanChoiceProps } from '../../islands/PlanChoice';
import { purchase, resumePurchase } from '../../islands/payments/purchase';
import type { PurchaseOutcome } from '../../islands/payments/purchase-types';
import { CONFIRMING_RECHECK_MS } from '../../islands/stores/payment';
import { purchaseRequestFor } from '../../islands/stores/purchase-request';
import {
  browserFetch,
  chargeApi,
  openPage,
  storedAttempt,
  testGatewayCard,
} from '../../scripts/load/journey';
import { NORMAL_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { islandProps, pageStateOf } from '../worker/page-html';
import type { BrowserSession } from './harness';
import { PATIENCE_MS } from './patience';

/**
 * Visitors by HTTP, for the browser files whose visitors are there only to be counted for the
 * console to show: the requests a visitor's browser sends the built worker (the islands' own API
 * client and payment state machine, scripts/load/journey.ts), with a browser's user agent (a
 * Node fetch says "node", which is no browser's), the cookies the worker sets, the same-origin
 * headers of a post, and an address of their own as Cloudflare would give it. The worker counts
 * them as it counts a person in Chromium: what it counts is its own sighting of each request
 * (worker/collector/seen-steps.ts) and the exposure ticket a page's script sends back.
 */

/** A phone's browser: headless Chromium's own agent is a bot's, never exposed or counted. */
const PHONE = NORMAL_USER_AGENTS['Chrome on Android, reduced user agent']!;

/** Each visitor's own address, as Cloudflare would give it (RFC 5737's documentation block). */
const addressOf = (n: number) => `198.51.${100 + Math.floor(n / 250)}.${(n % 250) + 1}`;

export interface HttpVisitor {
  fetch: typeof fetch;
  /** The visitor's `userUuid`: given, or the one the worker set on their first page. */
  visitorId(): string;
  /** The last value the worker set for the cookie `name`. */
  cookie(name: string): string | undefined;
}

/**
 * A visitor of `session`'s worker from the `n`th address, with `userAgent` (a phone's unless
 * said), drawn as `visitorId` or, without one, on a first visit as a new person is.
 */
export function httpVisitor(
  session: BrowserSession,
  n: number,
  { userAgent = PHONE, visitorId }: { userAgent?: string; visitorId?: string } = {},
): HttpVisitor {
  const browser = browserFetch({
    origin: session.worker.url.origin,
    address: addressOf(n),
    ...(visitorId === undefined ? { firstVisit: true } : { visitorId }),
    headers: { 'user-agent': userAgent },
  });
  const set = new Map<string, string>();
  const seen: typeof fetch = async (input, init) => {
    const response = await browser.fetch(input, init);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      set.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  return { fetch: seen, visitorId: () => browser.visitorId, cookie: (name) => set.get(name) };
}

/** Runs `visit` for each item with its index, a few at a time. */
export async function eachVisitor<T>(
  items: readonly T[],
  visit: (item: T, n: number) => Promise<void>,
): Promise<void> {
  const queue = [...items.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await visit(next[1], next[0]);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * The visitor opens the landing (`/`, or the ad link `path` to it) and its script sends the
 * exposure ticket back.
 */
export async function land(visitor: HttpVisitor, path = '/'): Promise<string> {
  const landing = await openPage(visitor.fetch, path);
  expect(landing.status).toBe(200);
  return landing.html;
}

/**
 * From a landing seen to the checkout: a sign-up with `email` through the islands' client, then
 * the checkout page, which the worker counts for a signed-in visitor. Its HTML and the account.
 */
export async function signUpAndCheckout(
  visitor: HttpVisitor,
  email: string,
): Promise<{ html: string; userId: string }> {
  const account = await signUp(
    { registration_source: 'email', email, user_uuid: visitor.visitorId(), landing_type: '' },
    { fetch: visitor.fetch },
  );
  const userId = account.data.entity.external_user_id;
  if (!userId) throw new Error(`the sign-up of ${email} answered no account`);
  const checkout = await openPage(visitor.fetch, '/checkout_v3_tr');
  expect(checkout.status).toBe(200);
  return { html: checkout.html, userId };
}

/**
 * From a landing seen to a charge: signUpAndCheckout, then Pay with `card` (4242 unless said) for
 * the plan the checkout selects, through the islands' payment state machine and the test
 * gateway's card fields, asking again while it says 'confirming', as the page does. What the
 * visitor was told last, and their account.
 */
export async function buy(
  visitor: HttpVisitor,
  { email, card }: { email: string; card?: string },
): Promise<{ told: PurchaseOutcome['kind'] | 'nothing'; userId: string }> {
  const checkout = await signUpAndCheckout(visitor, email);
  const plans = islandProps(checkout.html, 'PlanChoice') as unknown as PlanChoiceProps;
  const chosen = plans.options.find((option) => option.id === plans.defaultId);
  const request = purchaseRequestFor({
    planId: plans.defaultId,
    details: chosen?.details ?? null,
    choice: { id: 'test', route: 'polling' },
    visitor: { email, uuid: visitor.visitorId() },
    method: { kind: 'card-fields', cardholderName: 'Http Visitor' },
  });
  const deps = {
    provider: testGatewayCard(visitor.fetch, card),
    api: chargeApi({ fetch: visitor.fetch }),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    attempts: storedAttempt(),
    newKey: () => crypto.randomUUID(),
    email,
  };
  let outcome: PurchaseOutcome | null = await purchase(request, deps);
  const until = Date.now() + PATIENCE_MS;
  while (outcome?.kind === 'confirming' && Date.now() < until) {
    await deps.sleep(CONFIRMING_RECHECK_MS);
    outcome = (await resumePurchase(deps)) ?? outcome;
  }
  return { told: outcome?.kind ?? 'nothing', userId: checkout.userId };
}

/**
 * The analytics tracker of the page the visitor was answered (`html`, at `path`), started as the
 * page starts it (islands/analytics/tracker.ts: the page's origin, collector and visitor), its
 * batches posted through the visitor's fetch as the page's uploader posts them; `answered` holds
 * the collector's statuses.
 */
export function pageTracker(
  visitor: HttpVisitor,
  { html, path, userId = null }: { html: string; path: string; userId?: string | null },
): { tracker: Tracker; answered: number[] } {
  const page = pageStateOf(html);
  const answered: number[] = [];
  const tracker = createTracker({
    origin: originOf(page, path),
    collector: page.analytics.collector,
    storage: null,
    transport: {
      async post(url, body) {
        const answer = await visitor.fetch(url, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        });
        answered.push(answer.status);
        return answer.status;
      },
      beacon: () => false,
      acknowledged: () => [],
    },
    timers: { setTimeout, clearTimeout: (handle) => clearTimeout(handle as number) },
    now: Date.now,
    randomId: () => crypto.randomUUID(),
    batchId: () => crypto.randomUUID().slice(0, 12),
    userId: () => userId,
    notify: () => {},
    log: { info: () => {}, warn: () => {} },
  });
  return { tracker, answered };
}

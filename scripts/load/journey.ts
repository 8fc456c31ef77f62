import {
  createDirectSubscription,
  getPollingResult,
  signUp,
  startPollingSubscription,
} from '../../islands/api/client';
import type { AttemptStore, PurchaseAttempt } from '../../islands/payments/attempt';
import type { CardProvider } from '../../islands/payments/provider';
import { purchase, resumePurchase } from '../../islands/payments/purchase';
import type { PurchaseOutcome } from '../../islands/payments/purchase-types';
import { CONFIRMING_RECHECK_MS } from '../../islands/stores/payment';
import { EXPOSURE_CONFIRMATION_PATH } from '../../shared/analytics/tracking';
import { TEST_GATEWAY_PATHS, type TokenizedCard } from '../../shared/test-gateway-protocol';

/**
 * One visitor's way from the landing to a paid plan, through a served worker, as the islands
 * make it: the same API client, the same payment state machine (islands/payments/purchase.ts)
 * with its attempt kept as localStorage would keep it, and the page's reactions to each outcome
 * (islands/stores/payment.ts): 'confirming' asks again every few seconds; 'failed' leaves Pay
 * enabled, and this visitor presses it again, as people do.
 */

const PLAN = 'monthly_7d_intro_usd';
/** How long a visitor takes to press Continue again after a failed sign-up. */
const SIGNUP_RETRY_MS = 3_000;
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' };

export interface JourneyOptions {
  /** The worker's origin, e.g. http://localhost:8787. */
  origin: string;
  /** The visitor's address as Cloudflare would give it (CF-Connecting-IP); a header, no traffic. */
  address: string;
  /** How many times the visitor presses Pay after being told it failed. */
  presses: number;
  /** After this, the visitor gives up waiting (the page would go on asking). */
  patienceMs: number;
  /** The test gateway's card number they pay with; 4242 unless said. */
  card?: string;
  /** Their `userUuid`, which draws their variants; a fresh one unless said. */
  visitorId?: string;
}

export interface JourneyReport {
  visitorId: string;
  userId: string | null;
  /** Each outcome the page acted on, in order: what the visitor was told. */
  told: PurchaseOutcome['kind'][];
  /** Sign-ups refused before one went through. */
  signupRetries: number;
  /** Something the journey itself could not do (never a charge outcome). */
  problem: string | null;
  /** What the last 'failed' or 'declined' said, for the report. */
  failure: string | null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A browser's cookies and same-origin headers, as fetch from the page sends them. Also the
 * visitor of `npm run walk` (scripts/request-walk/requests.ts).
 */
export function browserFetch(
  options: Pick<JourneyOptions, 'origin' | 'address' | 'visitorId'> & {
    /** Sent on every request too: the browser's user agent, a country for Miniflare's `cf`. */
    headers?: Record<string, string>;
    /**
     * A browser on its first visit: no `userUuid` until the worker sets one, so its first page
     * counts as a first visit of its route, as a new person's does.
     */
    firstVisit?: boolean;
  },
): {
  fetch: typeof fetch;
  visitorId: string;
} {
  const cookies = new Map<string, string>(
    options.firstVisit ? [] : [['userUuid', options.visitorId ?? crypto.randomUUID()]],
  );
  const pageFetch: typeof fetch = async (input, init = {}) => {
    const url = new URL(String(input), options.origin);
    const headers = new Headers({ ...options.headers });
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
    headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    headers.set('cf-connecting-ip', options.address);
    headers.set('referer', `${options.origin}/checkout_v3_tr`);
    if ((init.method ?? 'GET') !== 'GET') {
      headers.set('origin', options.origin);
      headers.set('sec-fetch-site', 'same-origin');
    }
    const response = await sendAsBrowser(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  return {
    fetch: pageFetch,
    // The worker's, once it set one, on a first visit.
    get visitorId() {
      return cookies.get('userUuid') ?? '';
    },
  };
}

/**
 * A request sent as a browser sends it: a GET whose kept-alive connection the server had closed
 * (undici's `UND_ERR_SOCKET`, "other side closed") is sent once more on a new one, as Chromium
 * does for a reused socket that fails; anything else, and a POST, fails as it came. Without it a
 * visitor of a loaded run failed on the worker's closing of an idle connection, though nothing
 * was wrong with the worker (console-ramp.test.ts at a load of 20).
 */
async function sendAsBrowser(url: URL, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const closed = (error as { cause?: { code?: string } }).cause?.code === 'UND_ERR_SOCKET';
    if (!closed || (init.method ?? 'GET') !== 'GET') throw error;
    return fetch(url, init);
  }
}

/**
 * Opens a page as a browser does, and sends back its exposure ticket, if it has one, as its boot
 * script does once the islands have hydrated (islands/exposure-confirmation.ts): so the visitor's
 * exposures count, as a person's do. The page's status and HTML.
 */
export async function openPage(
  pageFetch: typeof fetch,
  path: string,
): Promise<{ status: number; html: string }> {
  const page = await pageFetch(path);
  const html = await page.text();
  const ticket = /"exposureTicket":"([^"]+)"/.exec(html)?.[1];
  if (ticket !== undefined) {
    const confirmed = await pageFetch(EXPOSURE_CONFIRMATION_PATH, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: ticket,
    });
    await confirmed.arrayBuffer();
  }
  return { status: page.status, html };
}

/**
 * The test gateway's card fields, tokenizing over HTTP as its frame does; 4242 unless another of
 * its test numbers is given (portal/test-gateway/test-cards.ts: 4000000000000002 is declined).
 */
export function testGatewayCard(pageFetch: typeof fetch, number = CARD.number): CardProvider {
  return {
    id: 'test',
    mount: async () => {},
    unmount: () => {},
    async createPaymentMethod() {
      const response = await pageFetch(TEST_GATEWAY_PATHS.paymentMethods, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...CARD, number }),
      });
      if (!response.ok) throw new Error(`tokenize answered ${response.status}`);
      return { nonce: ((await response.json()) as TokenizedCard).id, bin: null };
    },
    confirmCardPayment: async () => {
      throw new Error('4242 never asks for 3-D Secure');
    },
  };
}

/** The islands' charge calls (islands/api/client.ts) through one visitor's fetch. */
export function chargeApi(call: { fetch: typeof fetch }) {
  return {
    startPollingSubscription: (planId: string, body: never, key: string) =>
      startPollingSubscription(planId, body, key, call),
    getPollingResult: (pollingId: string) => getPollingResult(pollingId, call),
    createDirectSubscription: (planId: string, body: never, key: string) =>
      createDirectSubscription(planId, body, key, call),
  };
}

/** localStorage's copy of the attempt, as the persisted $checkout slice keeps it. */
export function storedAttempt(): AttemptStore {
  let kept: string | null = null;
  return {
    load: () => (kept === null ? null : (JSON.parse(kept) as PurchaseAttempt)),
    save: (attempt) => {
      kept = JSON.stringify(attempt);
    },
    clear: () => {
      kept = null;
    },
  };
}

export async function runJourney(options: JourneyOptions): Promise<JourneyReport> {
  const { fetch: pageFetch, visitorId } = browserFetch(options);
  const report: JourneyReport = {
    visitorId,
    userId: null,
    told: [],
    signupRetries: 0,
    problem: null,
    failure: null,
  };
  const call = { fetch: pageFetch };
  const started = Date.now();

  await openPage(pageFetch, '/');
  const email = `load-${visitorId}@example.test`;
  while (report.userId === null) {
    try {
      // The worker files the account under its own visitor id and landing type.
      const account = await signUp(
        { registration_source: 'email', email, user_uuid: visitorId, landing_type: '' },
        call,
      );
      report.userId = account.data.entity.external_user_id;
    } catch (error) {
      report.signupRetries += 1;
      if (Date.now() - started > options.patienceMs) {
        report.problem = `sign-up never went through: ${String(error)}`;
        return report;
      }
      // A person reads the error and tries again a few seconds later.
      await sleep(SIGNUP_RETRY_MS);
    }
  }

  const deps = {
    provider: testGatewayCard(pageFetch, options.card),
    api: chargeApi(call),
    sleep,
    now: Date.now,
    attempts: storedAttempt(),
    newKey: () => crypto.randomUUID(),
    email,
  };
  const request = {
    planId: PLAN,
    route: 'polling' as const,
    gateway: 'test',
    coupon: null,
    userData: { plan: PLAN, price: '6.99', currency: 'USD' },
    method: { kind: 'card-fields' as const, cardholderName: 'Load Visitor' },
  };

  for (let press = 0; press <= options.presses; press += 1) {
    let outcome: PurchaseOutcome | null = await purchase(request, deps);
    report.told.push(outcome.kind);
    if (outcome.kind === 'failed' || outcome.kind === 'declined') {
      report.failure = JSON.stringify(outcome.text);
    }
    while (outcome?.kind === 'confirming' && Date.now() - started < options.patienceMs) {
      await sleep(CONFIRMING_RECHECK_MS);
      outcome = await resumePurchase(deps);
      if (outcome) report.told.push(outcome.kind);
    }
    if (outcome?.kind !== 'failed') break;
  }
  return report;
}

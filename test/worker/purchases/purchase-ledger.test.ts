import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { switchFaultOn, switchFaultOnUntil } from '../../../portal/faults';
import { cardFingerprintOf } from '../../../portal/test-gateway/test-cards';
import { ApiErrorBody, PollingStartResponse } from '../../../shared/api/contract';
import { developmentKit } from '../../../worker/dev/kit';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { governorCardKey } from '../../../worker/purchase-ledger/ledger';
import { durableCardAttempts } from '../../../worker/retry-governor/card-attempts';
import type { ProposedAttempt } from '../../../worker/retry-governor/governor';
import { freshApp } from '../fetch-app';
import { migrate } from '../fresh-storage';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * One charge per purchase, wired (docs/payments.md "One charge per purchase"): the worker's
 * charge calls through the purchase's attempt ledger (PURCHASE_ATTEMPTS) and the retry governor
 * (CARD_ATTEMPTS), to the embedded portal on D1, as a visitor and an attacker use them.
 */

const STOLEN = '4000 0000 0000 9979';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let warnings: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await migrate(env.PORTAL_DB, env.TEST_MIGRATIONS);
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await reset();
});

let block = 0;
/** A visitor of their own address, signed up, through one development worker. */
async function buyer(fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0' })) {
  block += 1;
  const visitor = checkoutVisitor({ fetchApp, ip: `198.18.${block % 250}.${1 + (block % 200)}` });
  await visitor.signUp();
  return visitor;
}
type Buyer = Awaited<ReturnType<typeof buyer>>;

/** The direct (alternate provider's) charge of PLAN with a card, as its checkout sends it. */
function payDirect(visitor: Buyer, nonce: string, key = crypto.randomUUID(), more = {}) {
  return visitor.call(
    `/api/users/me/subscriptions/${PLAN}`,
    {
      gateway: 'test',
      payment_method_nonce: nonce,
      coupon: null,
      payment_intent_id: null,
      user_data: { price: '39.99', periodPrice: '6.99', currency: 'USD' },
      renewal_consent: TICKED_RENEWAL_CONSENT,
      ...more,
    },
    { 'idempotency-key': key },
  );
}

async function charges(): Promise<{ status: string; purchase_id: string | null }[]> {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT status, purchase_id FROM subscriptions ORDER BY rowid',
  ).all<{ status: string; purchase_id: string | null }>();
  return results;
}

const active = async () => (await charges()).filter((row) => row.status === 'active').length;

async function expectRefused(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(ApiErrorBody.parse(await response.json()).code).toBe(code);
}

function refusalLogged(fields: Record<string, unknown>) {
  const lines = warnings.mock.calls.map((call: unknown[]) => JSON.parse(String(call[0])));
  expect(lines).toContainEqual(expect.objectContaining({ warning: 'charge_refused', ...fields }));
}

describe('a charge whose answer is lost', () => {
  it('a timeout after the charge, then a retry: one charge, on either provider', async () => {
    const visitor = await buyer();
    const nonce = await visitor.tokenize(CARDS.succeeds);
    await switchFaultOnUntil(env.PORTAL_DB, 'subscriptions-polling', Date.now() + HOUR, 'after');
    const key = crypto.randomUUID();
    expect((await visitor.subscribe(nonce, key)).status).toBeGreaterThanOrEqual(500);
    await switchFaultOn(env.PORTAL_DB, 'subscriptions-polling', 0);
    expect(await active()).toBe(1);

    // A second press with a new key, on the same provider or the other, waits for the first.
    await expectRefused(await visitor.subscribe(nonce), 409, 'purchase_confirming');
    await expectRefused(await payDirect(visitor, nonce), 409, 'purchase_confirming');
    refusalLogged({ reason: 'purchase_confirming', call: 'directSubscription' });

    // The checkout follows its attempt with the same key: the first charge's result.
    const [result] = await visitor.poll(await visitor.subscribe(nonce, key));
    expect(result?.status).toBe('succeeded');
    await expectRefused(await payDirect(visitor, nonce), 409, 'purchase_charged');
    expect(await active()).toBe(1);
  });

  it('a result that could not be read is asked for before the other provider is tried', async () => {
    const visitor = await buyer();
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const started = await visitor.subscribe(nonce);
    expect(started.status).toBe(200);
    await switchFaultOn(env.PORTAL_DB, 'polling-result', 1);
    const { polling_result_id } = PollingStartResponse.parse(await started.json()).data;
    expect((await visitor.call(`/api/polling/get-result/${polling_result_id}`)).status).toBe(500);

    // The worker reconciles the unknown attempt by its polling id: it charged, so no second one.
    await expectRefused(await payDirect(visitor, nonce), 409, 'purchase_charged');
    expect(await active()).toBe(1);
  });
});

describe('a hard decline', () => {
  it.each([
    ['the card gateway first', 'polling'],
    ['the alternate provider first', 'direct'],
  ] as const)('stops the card on both providers (%s); another card pays', async (_, first) => {
    const visitor = await buyer();
    if (first === 'polling') {
      expect((await visitor.pay(STOLEN)).result?.status).toBe('failed');
    } else {
      expect((await payDirect(visitor, await visitor.tokenize(STOLEN))).status).toBe(422);
    }
    const before = (await charges()).length;
    await expectRefused(
      await payDirect(visitor, await visitor.tokenize(STOLEN)),
      402,
      'card_stopped',
    );
    await expectRefused(
      await visitor.subscribe(await visitor.tokenize(STOLEN)),
      402,
      'card_stopped',
    );
    refusalLogged({ reason: 'card_stopped' });
    expect((await charges()).length).toBe(before);
    expect((await visitor.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
  });
});

/** Declined attempts of `visitor`'s card `number` on record, `ago` ms before now each. */
async function seedDeclines(visitor: Buyer, number: string, agos: number[]) {
  const account = decodeURIComponent(visitor.cookies.get('gf_user') ?? '').split('.')[0] ?? '';
  const fingerprint = await cardFingerprintOf(number.replaceAll(' ', ''));
  const key = await governorCardKey(account, fingerprint, true);
  const store = durableCardAttempts(env.CARD_ATTEMPTS);
  const at = Date.now();
  for (const [n, ago] of agos.entries()) {
    const id = `seed-${n}`;
    const proposed: ProposedAttempt = {
      at: at - ago,
      network: 'visa',
      initiator: 'customer',
      provider: 'stripe',
    };
    expect(await store.admit(key, id, proposed)).toEqual({ allowed: true });
    await store.settle(key, id, { result: 'declined', responseCode: '05', adviceCode: null });
  }
}

describe('the retry governor on the charge path', () => {
  it("refuses the card past Visa's 20 customer reattempts in 30 days", async () => {
    const card = '4000 0566 5566 5556';
    const visitor = await buyer();
    await seedDeclines(
      visitor,
      card,
      Array.from({ length: 20 }, (_, n) => (2 + n) * DAY),
    );
    const refused = await visitor.subscribe(await visitor.tokenize(card));
    await expectRefused(refused, 429, 'card_retry_limit');
    // The oldest decline leaves the window in 9 days.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan((8 * DAY) / 1000);
    refusalLogged({ rule: 'visa_customer_reattempts' });
    expect(await charges()).toEqual([]);
  });

  it("refuses the card past Mastercard's 10 attempts in 24 hours, on the other provider too", async () => {
    const card = '5555 5555 5555 4444';
    const visitor = await buyer();
    await seedDeclines(
      visitor,
      card,
      Array.from({ length: 10 }, (_, n) => (n + 1) * HOUR),
    );
    await expectRefused(
      await payDirect(visitor, await visitor.tokenize(card)),
      429,
      'card_retry_limit',
    );
    refusalLogged({ rule: 'mastercard_24_hours', call: 'directSubscription' });
    // One attempt fewer on record: the same card goes through.
    const other = '5200 8282 8282 8210';
    await seedDeclines(
      visitor,
      other,
      Array.from({ length: 9 }, (_, n) => (n + 1) * HOUR),
    );
    expect((await visitor.pay(other)).result?.status).toBe('succeeded');
  });
});

/**
 * The embedded portal, with the network's code `responseCode` added to every declined polling
 * result, as a product API that passes on Stripe's `network_decline_code` answers.
 */
function portalWithNetworkCode(responseCode: string): PortalFetch {
  return async (request, bindings, ctx) => {
    const answer = await developmentKit.portal(request, bindings, ctx);
    if (!new URL(request.url).pathname.startsWith('/polling/get-result/')) return answer;
    const body = (await answer.json()) as { data: { result_data: Record<string, unknown> | null } };
    const result = body.data.result_data;
    if (result?.status === 'failed') result.network_decline_code = responseCode;
    return Response.json(body, { status: answer.status });
  };
}

describe("the network's codes on the charge path", () => {
  it('a Visa category 1 code the product API passes on stops the card in the governor', async () => {
    const portalFetch = portalWithNetworkCode('14');
    const visitor = await buyer(freshApp({ portalFetch }, { PORTAL_POLLING_DELAY_MS: '0' }));
    expect((await visitor.pay(CARDS.genericDecline)).result?.status).toBe('failed');
    const account = decodeURIComponent(visitor.cookies.get('gf_user') ?? '').split('.')[0] ?? '';
    const fingerprint = await cardFingerprintOf(CARDS.genericDecline.replaceAll(' ', ''));
    const key = await governorCardKey(account, fingerprint, true);
    const store = durableCardAttempts(env.CARD_ATTEMPTS);
    expect((await store.recent(key)).map((attempt) => attempt.outcome)).toEqual([
      { result: 'declined', responseCode: '14', adviceCode: null },
    ]);
    const next = { at: Date.now(), network: 'visa', initiator: 'customer', provider: 'braintree' };
    expect(await store.admit(key, 'later', next as ProposedAttempt)).toEqual({
      allowed: false,
      rule: 'visa_category_1',
      until: null,
    });
    // A do-not-honour decline reads HARD with it: the same card is stopped in the purchase too.
    const again = await payDirect(visitor, await visitor.tokenize(CARDS.genericDecline));
    await expectRefused(again, 402, 'card_stopped');
  });
});

describe("an attacker's view", () => {
  it('a replayed Idempotency-Key answers its first charge; another card under it is refused once paid', async () => {
    const visitor = await buyer();
    const key = crypto.randomUUID();
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const first = PollingStartResponse.parse(await (await visitor.subscribe(nonce, key)).json());
    const again = PollingStartResponse.parse(await (await visitor.subscribe(nonce, key)).json());
    expect(again).toEqual(first);
    // Another card under the same key is another attempt (the worker names attempts by key and
    // card), and the purchase is paid: nothing more is sent, on either provider.
    const otherCard = await visitor.tokenize('5555 5555 5555 4444');
    await expectRefused(await payDirect(visitor, otherCard, key), 409, 'purchase_charged');
    await expectRefused(await visitor.subscribe(otherCard, key), 409, 'purchase_charged');
    expect(await active()).toBe(1);
  });

  it("another visitor's key or purchase id names nothing of theirs", async () => {
    const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0' });
    const victim = await buyer(fetchApp);
    const key = crypto.randomUUID();
    expect(
      (await victim.poll(await victim.subscribe(await victim.tokenize(CARDS.succeeds), key)))[0]
        ?.status,
    ).toBe('succeeded');
    const [{ purchase_id: victims = null } = {}] = await charges();
    expect(victims).toMatch(/^pur_[0-9a-f]{32}$/);

    // The attacker sends the victim's key and purchase id: it buys (or not) for itself only.
    const attacker = await buyer(fetchApp);
    const answer = await payDirect(attacker, await attacker.tokenize(CARDS.succeeds), key, {
      purchase_id: victims,
    });
    expect(answer.status).toBe(200);
    const rows = await charges();
    expect(rows).toHaveLength(2);
    expect(rows[1]?.purchase_id).toMatch(/^pur_[0-9a-f]{32}$/);
    expect(rows[1]?.purchase_id).not.toBe(victims);
    // The victim's purchase is untouched: still paid, once.
    await expectRefused(
      await victim.subscribe(await victim.tokenize(CARDS.succeeds)),
      409,
      'purchase_charged',
    );
  });

  it('a burst of presses with fresh keys sends one charge', async () => {
    const visitor = await buyer();
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const answers = await Promise.all(Array.from({ length: 6 }, () => visitor.subscribe(nonce)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await active()).toBe(1);
  });
});

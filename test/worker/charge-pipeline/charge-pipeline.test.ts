import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiErrorBody } from '../../../shared/api/contract';
import type { ChargePhase, ChargeStepName } from '../../../worker/charge-pipeline/charge-pipeline';
import { testGatewayFingerprint } from '../../../worker/dev/test-card-fingerprint';
import { governorCardKey } from '../../../worker/purchase-ledger/ledger';
import { durableCardAttempts } from '../../../worker/retry-governor/card-attempts';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import {
  checkoutVisitor,
  DECLINING_CARDS,
  TICKED_RENEWAL_CONSENT,
} from '../purchases/checkout-visitor';
import {
  boughtWithLink,
  cardPostFromPage,
  countingPortal,
  failedRenewal,
  PAGE_APP,
} from '../subscriber-links/subscriber-fixtures';
import { CARDS, tokenize } from '../test-gateway/gateway-client';

/**
 * The one charge pipeline (worker/charge-pipeline/charge-pipeline.ts, docs/payments.md "One
 * charge pipeline"): every way money moves from a card passes the same steps in the same order,
 * and the card-testing probe that went around the subscriber's page (one constant
 * Idempotency-Key, a fresh declined card each post) is stopped by the sixth declined card on the
 * checkout, a manage link and a recovery link alike.
 */

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** What every charge passes before and after the product API, in order. */
const ADMITTED = ['limits:admit', 'provider:admit', 'ledger:admit', 'governor:admit', 'send:send'];
const SETTLED = [
  'classify:settle',
  'limits:settle',
  'provider:settle',
  'ledger:settle',
  'governor:settle',
  'log:settle',
  'record:settle',
];

/** A spy on every step: each step and phase as the pipeline ran it, in order. */
function stepSpy() {
  const seen: string[] = [];
  const watch = vi.fn((step: ChargeStepName | 'send', phase: ChargePhase) => {
    seen.push(`${step}:${phase}`);
  });
  return { watch, seen, clear: () => seen.splice(0) };
}

/** A bought subscription's manage link, its app told each charge step, the portal counted. */
async function boughtWatched(spy: ReturnType<typeof stepSpy>) {
  const counting = countingPortal();
  const fetchApp = freshApp(
    { portalFetch: counting.portalFetch, watchCharge: spy.watch },
    PAGE_APP,
  );
  const { url } = await boughtWithLink(fetchApp);
  return { counting, fetchApp, url };
}

/** The subscriber page's script, posting a card with the one header a card tester keeps. */
function postUnderOneKey(
  fetchApp: ReturnType<typeof freshApp>,
  path: string,
  action: 'card' | 'pay-due',
  nonce: string,
) {
  return fetchApp(`${path}/${action}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      'idempotency-key': 'one-key-for-every-card',
      'cf-connecting-ip': '198.51.100.77',
    },
    body: JSON.stringify({ gateway: 'test', payment_method_nonce: nonce }),
  });
}

/**
 * Seven declined cards: six of their own (all the test gateway has), then the first again. The
 * sixth is the first past the limit of five; the seventh shows a card already seen is refused too.
 */
const SEVEN_DECLINES = Array.from({ length: 7 }, (_, n) => DECLINING_CARDS[n % 6] as string);

describe('every way to charge passes every step, in one order', () => {
  it('a purchase on the card gateway: the POST runs them all, its polling result settles them', async () => {
    const spy = stepSpy();
    const visitor = checkoutVisitor({ fetchApp: freshApp({ watchCharge: spy.watch }, PAGE_APP) });
    await visitor.signUp();
    expect(spy.seen).toEqual([]);
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
    spy.clear();
    expect((await visitor.poll(started))[0]?.status).toBe('succeeded');
    expect(spy.seen).toEqual(SETTLED);
  });

  it('a purchase on the alternate provider, then an upsell on the card on file', async () => {
    const spy = stepSpy();
    const visitor = checkoutVisitor({ fetchApp: freshApp({ watchCharge: spy.watch }, PAGE_APP) });
    await visitor.signUp();
    const direct = await visitor.call(
      '/api/users/me/subscriptions/monthly_7d_intro_usd',
      {
        gateway: 'test',
        payment_method_nonce: await visitor.tokenize(CARDS.succeeds),
        coupon: null,
        payment_intent_id: null,
        user_data: { price: '39.99', periodPrice: '6.99', currency: 'USD' },
        renewal_consent: TICKED_RENEWAL_CONSENT,
      },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(direct.status).toBe(200);
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
    spy.clear();
    const upsell = await visitor.subscribe(
      null,
      crypto.randomUUID(),
      'upsell_monthly_999_usd',
      { price: '9.99', currency: 'USD' },
      'upsell_30',
    );
    expect((await visitor.poll(upsell))[0]?.status).toBe('succeeded');
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED, ...SETTLED]);
  });

  it('paying what is due on a recovery link', async () => {
    const spy = stepSpy();
    const { fetchApp, path } = await failedRenewal({ watchCharge: spy.watch });
    spy.clear();
    const nonce = await tokenize(CARDS.succeeds);
    const paid = await cardPostFromPage(fetchApp, path, 'pay-due', {
      gateway: 'test',
      payment_method_nonce: nonce,
    });
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
  });

  it('paying what is due on a manage link, with a new card and with the card on file', async () => {
    const spy = stepSpy();
    const { fetchApp, manage } = await failedRenewal({ watchCharge: spy.watch });
    spy.clear();
    const declined = await cardPostFromPage(fetchApp, manage.pathname, 'pay-due', {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.insufficientFunds),
    });
    expect(declined.status).toBe(402);
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
    spy.clear();
    // A card saved while the due is due (an update runs the steps too), then paid on file.
    await cardPostFromPage(fetchApp, manage.pathname, 'card', {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
    spy.clear();
    const paid = await cardPostFromPage(fetchApp, manage.pathname, 'pay-due', {
      gateway: 'test',
      card_on_file: true,
    });
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
  });

  it('a new card on a manage link', async () => {
    const spy = stepSpy();
    const { fetchApp, url } = await boughtWatched(spy);
    spy.clear();
    const updated = await cardPostFromPage(fetchApp, url.pathname, 'card', {
      gateway: 'test',
      payment_method_nonce: await tokenize('5555 5555 5555 4444'),
    });
    expect(((await updated.json()) as { status: string }).status).toBe('updated');
    expect(spy.seen).toEqual([...ADMITTED, ...SETTLED]);
  });

  it('a step that refuses ends the charge there: nothing later runs, nothing is sent', async () => {
    const spy = stepSpy();
    const { counting, fetchApp, url } = await boughtWatched(spy);
    for (const card of DECLINING_CARDS.slice(0, 5)) {
      await postUnderOneKey(fetchApp, url.pathname, 'card', await tokenize(card));
    }
    spy.clear();
    const asked = counting.calls.length;
    const refused = await postUnderOneKey(
      fetchApp,
      url.pathname,
      'card',
      await tokenize(CARDS.succeeds),
    );
    expect(refused.status).toBe(429);
    expect(spy.seen).toEqual(['limits:admit']);
    expect(counting.calls.length).toBe(asked);
  });
});

describe('the card-testing probe: one constant header, a fresh declined card each time', () => {
  it('on the checkout: five declines, then the sixth card is refused before the product API', async () => {
    const visitor = checkoutVisitor({ ip: '198.51.100.78' });
    await visitor.signUp();
    const statuses: number[] = [];
    for (const card of SEVEN_DECLINES) {
      const started = await visitor.subscribe(
        await visitor.tokenize(card),
        'one-key-for-every-card',
      );
      statuses.push(started.status);
      if (started.status === 200) expect((await visitor.poll(started))[0]?.status).toBe('failed');
      else {
        expect(ApiErrorBody.parse(await started.json()).code).toBe('payment_rate_limited');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it('on a manage link’s Update card: the sixth declined card gets 429', async () => {
    const counting = countingPortal();
    const fetchApp = freshApp({ portalFetch: counting.portalFetch }, PAGE_APP);
    const { url } = await boughtWithLink(fetchApp);
    const statuses: number[] = [];
    for (const card of SEVEN_DECLINES) {
      statuses.push(
        (await postUnderOneKey(fetchApp, url.pathname, 'card', await tokenize(card))).status,
      );
    }
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429, 429]);
    // Each card reached the product API under a key of its own, none under the browser's.
    const keys = counting.keys.filter((key) => key !== null);
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    expect(keys).not.toContain('one-key-for-every-card');
  });

  it('on a recovery link’s Pay: the sixth declined card gets 429', async () => {
    const { fetchApp, path, counting } = await failedRenewal();
    const statuses: number[] = [];
    for (const card of SEVEN_DECLINES) {
      statuses.push(
        (await postUnderOneKey(fetchApp, path, 'pay-due', await tokenize(card))).status,
      );
    }
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429, 429]);
    expect(new Set(counting.keys.filter((key) => key !== null)).size).toBe(5);
  });

  it('one declined card posted again and again from one address, freshly tokenized: the sixth gets 429', async () => {
    const { fetchApp, path } = await failedRenewal();
    const statuses: number[] = [];
    for (let n = 0; n < 7; n += 1) {
      const nonce = await tokenize(CARDS.insufficientFunds);
      statuses.push((await postUnderOneKey(fetchApp, path, 'pay-due', nonce)).status);
    }
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429, 429]);
  });
});

/** A Durable Object namespace whose objects cannot be reached, as in an outage of the stores. */
// biome-ignore lint/suspicious/noExplicitAny: stands in for any namespace's type
function unreachableObjects(): any {
  const fail = () => Promise.reject(new Error('Durable Object unreachable'));
  const stub = new Proxy({}, { get: () => fail });
  return {
    idFromName: (name: string) => ({ name }),
    get: () => stub,
  };
}

describe('the ledger or the governor out of reach: the charge is refused, not sent', () => {
  it.each(['PURCHASE_ATTEMPTS', 'CARD_ATTEMPTS'] as const)(
    'the checkout with %s unreachable: 503 payment_guard_unavailable, no charge',
    async (binding) => {
      const counting = countingPortal();
      const visitor = checkoutVisitor({
        fetchApp: freshApp(
          { portalFetch: counting.portalFetch },
          {
            ...PAGE_APP,
            [binding]: unreachableObjects(),
          },
        ),
      });
      await visitor.signUp();
      const refused = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
      expect(refused.status).toBe(503);
      expect(ApiErrorBody.parse(await refused.json()).code).toBe('payment_guard_unavailable');
      const { results } = await env.PORTAL_DB.prepare('SELECT id FROM subscriptions').all();
      expect(results).toEqual([]);
      const logged = errors.mock.calls.map((call: unknown[]) => String(call[0]));
      expect(logged.some((line: string) => line.includes('"error":"charge_ledger_failed"'))).toBe(
        true,
      );
    },
  );

  it('a recovery link with the ledger unreachable: 503 with the code, the due still due', async () => {
    const { fetchApp, path, counting } = await failedRenewal();
    const asked = counting.calls.length;
    const broken = freshApp(
      { portalFetch: counting.portalFetch },
      {
        ...PAGE_APP,
        PURCHASE_ATTEMPTS: unreachableObjects(),
      },
    );
    const refused = await cardPostFromPage(broken, path, 'pay-due', {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.succeeds),
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: 'payment_guard_unavailable' });
    // The due was read, and nothing was paid.
    expect(counting.calls.slice(asked).filter((call) => call.startsWith('POST'))).toEqual([]);
    // The same link pays once the stores answer again.
    const paid = await cardPostFromPage(fetchApp, path, 'pay-due', {
      gateway: 'test',
      payment_method_nonce: await tokenize(CARDS.succeeds),
    });
    expect(((await paid.json()) as { status: string }).status).toBe('paid');
  });
});

describe('the governor knows the card', () => {
  /** The account a signed-up visitor pays as: the payer the governor counts a test card for. */
  async function accountOf(email: string): Promise<string> {
    const row = await env.PORTAL_DB.prepare('SELECT id FROM users WHERE email = ?')
      .bind(email)
      .first<{ id: string }>();
    if (!row) throw new Error(`no account for ${email}`);
    return row.id;
  }
  const fingerprintOf = async (number: string) =>
    (await testGatewayFingerprint(await tokenize(number), env))?.fingerprint ?? null;

  it('counts a charge under the card’s own network; a test card per payer', async () => {
    const store = durableCardAttempts(env.CARD_ATTEMPTS);
    const visa = checkoutVisitor({ ip: '198.51.100.80' });
    const visaAccount = await accountOf(await visa.signUp());
    expect((await visa.pay(CARDS.genericDecline)).result?.status).toBe('failed');
    const other = checkoutVisitor({ ip: '198.51.100.81' });
    const otherAccount = await accountOf(await other.signUp());
    expect((await other.pay(CARDS.genericDecline)).result?.status).toBe('failed');
    const mastercard = checkoutVisitor({ ip: '198.51.100.82' });
    const mastercardAccount = await accountOf(await mastercard.signUp());
    expect((await mastercard.pay('5555 5555 5555 4444')).result?.status).toBe('succeeded');

    const declined = await fingerprintOf(CARDS.genericDecline);
    for (const account of [visaAccount, otherAccount]) {
      const attempts = await store.recent(await governorCardKey(account, declined, true));
      // The test gateway's cards are everyone's test numbers: each payer's count is their own.
      expect(attempts.map(({ network, initiator }) => ({ network, initiator }))).toEqual([
        { network: 'visa', initiator: 'customer' },
      ]);
    }
    const paid = await store.recent(
      await governorCardKey(mastercardAccount, await fingerprintOf('5555 5555 5555 4444'), true),
    );
    expect(paid.map(({ network, outcome }) => ({ network, result: outcome.result }))).toEqual([
      { network: 'mastercard', result: 'approved' },
    ]);
  });
});

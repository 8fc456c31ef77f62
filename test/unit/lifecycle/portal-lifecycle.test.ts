import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { lifecycleEventOf } from '../../../portal/lifecycle-event';
import type { StoredSubscription } from '../../../portal/store/subscriptions';
import { DEFAULT_WORKER_URL, parsePortalArgs } from '../../../scripts/portal/arguments';
import {
  matchingSignature,
  readSignatureHeader,
  signatureHeaderFor,
} from '../../../worker/lifecycle/signature';

/**
 * `npm run portal -- renew | refund | chargeback | cancel <subscription>`: its arguments, the
 * event it builds from what the emulator charged, and the signature it sends, checked against
 * Node's own HMAC so that signer and verifier cannot agree on a mistake.
 */

const LOCAL = { remote: false, persistTo: undefined, environment: 'development' };

describe('npm run portal lifecycle arguments', () => {
  it.each([
    ['renew', 'renewal'],
    ['refund', 'refund'],
    ['chargeback', 'chargeback'],
    ['cancel', 'cancellation'],
    ['renewal-failed', 'renewal_failed'],
  ])('reads %s <subscription> as a %s for the local worker', (word, type) => {
    expect(parsePortalArgs([word, 'sub_abc'])).toEqual({
      kind: 'run',
      command: {
        name: 'lifecycle',
        type,
        subscriptionId: 'sub_abc',
        amount: null,
        url: DEFAULT_WORKER_URL,
      },
      options: LOCAL,
    });
  });

  it('reads --amount in cents and --url as an origin, either form, anywhere', () => {
    expect(
      parsePortalArgs(['--amount', '39.99', 'renew', 'sub_abc', '--url=http://127.0.0.1:9000/']),
    ).toMatchObject({
      kind: 'run',
      command: { amount: 3999, url: 'http://127.0.0.1:9000' },
    });
    expect(parsePortalArgs(['refund', 'sub_abc', '--amount=5'])).toMatchObject({
      command: { type: 'refund', amount: 500 },
    });
    expect(
      parsePortalArgs(['chargeback', 'sub_abc', '--persist-to', '/tmp/s', '--amount', '0.5']),
    ).toMatchObject({ command: { amount: 50 }, options: { persistTo: '/tmp/s' } });
  });

  it.each([
    [['renew'], 'renew needs a subscription id'],
    [['refund', 'sub_a', 'sub_b'], 'refund takes one subscription id'],
    [['renew', 'sub_a', '--amount'], '--amount needs a value'],
    [['renew', 'sub_a', '--amount='], '--amount needs a value'],
    [['renew', 'sub_a', '--amount', '1', '--amount', '2'], '--amount given twice'],
    [['renew', 'sub_a', '--amount', '-5'], '--amount must be a price such as 39.99, not "-5"'],
    [['renew', 'sub_a', '--amount', '0'], '--amount must be a price such as 39.99, not "0"'],
    [
      ['renew', 'sub_a', '--amount', '39.999'],
      '--amount must be a price such as 39.99, not "39.999"',
    ],
    [['renew', 'sub_a', '--amount', '1e3'], '--amount must be a price such as 39.99, not "1e3"'],
    [['cancel', 'sub_a', '--amount', '5'], 'cancel takes no --amount'],
    [
      ['renew', 'sub_a', '--url', 'localhost:8787'],
      `--url must be an http(s) address such as ${DEFAULT_WORKER_URL}`,
    ],
    [
      ['users', '--amount', '5'],
      '--amount is for renew, renewal-failed, refund, chargeback and cancel',
    ],
    [
      ['fail', 'signup', '--url', DEFAULT_WORKER_URL],
      '--url is for renew, renewal-failed, refund, chargeback and cancel',
    ],
    [
      ['renew', 'sub_a', '--remote'],
      '--remote: the emulator is local only; production uses the real product API',
    ],
  ])('refuses %j: %s', (argv, error) => {
    expect(parsePortalArgs(argv)).toEqual({ kind: 'usage-error', error });
  });
});

function charged(overrides: Partial<StoredSubscription> = {}) {
  return {
    id: 'sub_abc',
    planId: 'monthly_7d_intro_usd',
    status: 'active' as const,
    priceWithDiscount: 6.99,
    ...overrides,
  };
}

const AT = { id: 'evt_1', occurredAt: '2026-11-22T08:00:00.000Z' };

describe('the event the embedded portal sends', () => {
  it('renews at the recurring price after the intro, in the plan currency', () => {
    expect(lifecycleEventOf(charged(), 'renewal', { ...AT, amount: null })).toEqual({
      ok: true,
      body: {
        id: 'evt_1',
        type: 'renewal',
        subscription_id: 'sub_abc',
        amount: 39.99,
        currency: 'USD',
        occurred_at: '2026-11-22T08:00:00.000Z',
      },
    });
  });

  it('refunds and charges back what the first charge took, in its currency', () => {
    const eur = charged({ planId: 'quarterly_eur', priceWithDiscount: 47.99 });
    expect(lifecycleEventOf(eur, 'refund', { ...AT, amount: null })).toMatchObject({
      body: { type: 'refund', amount: 47.99, currency: 'EUR' },
    });
    expect(lifecycleEventOf(charged(), 'chargeback', { ...AT, amount: null })).toMatchObject({
      body: { type: 'chargeback', amount: 6.99, currency: 'USD' },
    });
  });

  it('takes --amount over the plan', () => {
    expect(lifecycleEventOf(charged(), 'refund', { ...AT, amount: 300 })).toMatchObject({
      body: { amount: 3, currency: 'USD' },
    });
  });

  it('fails a renewal with the recurring price due, declined for insufficient funds on the first try', () => {
    expect(lifecycleEventOf(charged(), 'renewal_failed', { ...AT, amount: null })).toEqual({
      ok: true,
      body: {
        id: 'evt_1',
        type: 'renewal_failed',
        subscription_id: 'sub_abc',
        amount: 39.99,
        currency: 'USD',
        occurred_at: '2026-11-22T08:00:00.000Z',
        attempt_count: 1,
        decline_code: 'insufficient_funds',
      },
    });
  });

  it('cancels with no money and no currency', () => {
    expect(lifecycleEventOf(charged(), 'cancellation', { ...AT, amount: null })).toMatchObject({
      body: { type: 'cancellation', amount: 0, currency: null },
    });
  });

  it.each([
    [
      charged({ status: 'declined' }),
      'renewal',
      'subscription sub_abc is declined: it was never charged, so there is nothing to renew',
    ],
    [
      charged({ status: 'requires_action' }),
      'chargeback',
      'subscription sub_abc is requires_action: it was never charged, so there is nothing to charge back',
    ],
    [
      charged({ planId: 'guide_899_usd' }),
      'renewal',
      'plan guide_899_usd is a one-time payment: it does not renew',
    ],
    [
      charged({ planId: 'guide_899_usd' }),
      'renewal_failed',
      'plan guide_899_usd is a one-time payment: it does not renew',
    ],
    [
      charged({ planId: 'legacy_plan' }),
      'refund',
      'plan legacy_plan is not in the catalogue: its currency is unknown',
    ],
  ] as const)(
    'refuses what the product API would never send: %j %s',
    (subscription, type, error) => {
      expect(lifecycleEventOf(subscription, type, { ...AT, amount: null })).toEqual({
        ok: false,
        error,
      });
    },
  );
});

describe('the signature it sends', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'renewal', subscription_id: 'sub_abc' });

  it("is Stripe's scheme: t, then the hex HMAC-SHA256 of `<t>.<body>`", async () => {
    const expected = createHmac('sha256', 'the-key').update(`1795334400.${body}`).digest('hex');
    expect(await signatureHeaderFor('the-key', 1795334400, body)).toBe(
      `t=1795334400,v1=${expected}`,
    );
  });

  it('carries one v1 per secret while a secret is rolled, and the worker takes either', async () => {
    const header = await signatureHeaderFor(['old-key', 'new-key'], 1795334400, body);
    const reading = readSignatureHeader(header);
    if (!reading.ok) throw new Error(reading.detail);
    expect(reading.header.signatures).toHaveLength(2);
    expect(await matchingSignature('old-key', reading.header, body)).toBe(
      reading.header.signatures[0],
    );
    expect(await matchingSignature('new-key', reading.header, body)).toBe(
      reading.header.signatures[1],
    );
    expect(await matchingSignature('another-key', reading.header, body)).toBeNull();
  });

  it('signs the exact bytes: a body changed by one character no longer matches', async () => {
    const reading = readSignatureHeader(await signatureHeaderFor('the-key', 1795334400, body));
    if (!reading.ok) throw new Error(reading.detail);
    expect(await matchingSignature('the-key', reading.header, `${body} `)).toBeNull();
    expect(
      await matchingSignature('the-key', { ...reading.header, timestamp: 1795334401 }, body),
    ).toBeNull();
  });

  it('reads an upper-case v1 and spaces around the items', async () => {
    const header = await signatureHeaderFor('the-key', 1795334400, body);
    const [t, v1] = header.split(',');
    const reading = readSignatureHeader(`${t} , ${v1?.toUpperCase().replace('V1=', 'v1=')}`);
    if (!reading.ok) throw new Error(reading.detail);
    expect(await matchingSignature('the-key', reading.header, body)).not.toBeNull();
  });
});

import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RENEWAL_CONSENT_VERSION } from '../../../shared/plans/renewal-consent';
import { CARDS } from '../test-gateway/gateway-client';
import {
  checkoutVisitor,
  consentFor,
  PLAN,
  PLAN_DATA,
  TICKED_RENEWAL_CONSENT,
} from './checkout-visitor';

/**
 * The renewal consent a charge must carry where the visitor's country asks for one
 * (shared/plans/renewal-consent.ts, worker/checkout/offer.ts): the worker refuses
 * a charge without it before the product API is asked, so a page that skips the box (or a
 * request forged without it) charges nothing; a consent given is stamped with the worker's clock
 * and kept by the embedded portal beside the subscription.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** A charge of PLAN posted by hand, as a forger would: `extra` replaces the consent. */
async function chargeWith(
  visitor: ReturnType<typeof checkoutVisitor>,
  consent: unknown,
  country: string,
  // A Canadian visitor pays in CAD (shared/plans/currency.ts): a USD plan is not offered them.
  { plan, data }: { plan: string; data: Record<string, string> } = { plan: PLAN, data: PLAN_DATA },
) {
  const nonce = await visitor.tokenize(CARDS.succeeds);
  const body: Record<string, unknown> = {
    gateway: 'test',
    payment_method_nonce: nonce,
    coupon: null,
    payment_intent_id: null,
    user_data: data,
  };
  if (consent !== undefined) body.renewal_consent = consent;
  return visitor.call(`/api/users/me/subscriptions/polling/${plan}`, body, {
    'idempotency-key': crypto.randomUUID(),
    'cf-ipcountry': country,
  });
}

async function subscriptionsOf(email: string) {
  const { results } = await env.PORTAL_DB.prepare(
    `SELECT s.id, c.text_version, c.language, c.accepted_at FROM subscriptions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN renewal_consents c ON c.subscription_id = s.id
     WHERE u.email = ?`,
  )
    .bind(email)
    .all<{
      id: string;
      text_version: string | null;
      language: string | null;
      accepted_at: string | null;
    }>();
  return results;
}

describe('a US visitor (the box is required)', () => {
  it('a charge without the consent is refused, and nothing is charged', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    const refused = await chargeWith(visitor, undefined, 'US');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'renewal_consent_required' });
    expect(await subscriptionsOf(email)).toEqual([]);
  });

  it('a consent naming another wording, or a language the pages do not speak, is refused', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    for (const forged of [
      { text_version: 'renewal-consent-1999', language: 'en' },
      { text_version: RENEWAL_CONSENT_VERSION, language: 'xx' },
      null,
    ]) {
      const refused = await chargeWith(visitor, forged, 'US');
      expect(refused.status, JSON.stringify(forged)).toBe(403);
    }
    expect(await subscriptionsOf(email)).toEqual([]);
  });

  it('with the consent it charges, and the portal keeps the wording, language and the worker’s time', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    const before = Date.now();
    // The page's own time is not believed: the worker's clock replaces it.
    const started = await chargeWith(
      visitor,
      { ...TICKED_RENEWAL_CONSENT, accepted_at: '2001-01-01T00:00:00.000Z' },
      'US',
    );
    const [result] = await visitor.poll(started);
    expect(result?.status).toBe('succeeded');
    const [kept] = await subscriptionsOf(email);
    expect(kept).toMatchObject({ text_version: RENEWAL_CONSENT_VERSION, language: 'en' });
    const acceptedAt = Date.parse(kept?.accepted_at ?? '');
    expect(acceptedAt).toBeGreaterThanOrEqual(before);
    expect(acceptedAt).toBeLessThanOrEqual(Date.now());
  });
});

describe('a consent names the terms it was ticked beside', () => {
  it('a consent for other terms than the charge’s is refused, and nothing is charged', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    const trial = consentFor('monthly_7d_intro_usd');
    for (const forged of [
      // Ticked beside the trial, posted for the quarterly plan.
      { plan: 'quarterly_usd', consent: trial },
      // The trial's own plan, with the amount or the renewal edited, or in another currency.
      { plan: PLAN, consent: { ...trial, terms: { ...trial.terms, amount: 1 } } },
      { plan: PLAN, consent: { ...trial, terms: { ...trial.terms, renewal_amount: 699 } } },
      { plan: PLAN, consent: { ...trial, terms: { ...trial.terms, currency: 'EUR' } } },
    ]) {
      const refused = await chargeWith(visitor, forged.consent, 'US', {
        plan: forged.plan,
        data: PLAN_DATA,
      });
      expect(refused.status, JSON.stringify(forged)).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'renewal_consent_changed' });
    }
    expect(await subscriptionsOf(email)).toEqual([]);
  });

  it('a consent for the charge’s own terms charges, and the terms go on with it', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    const started = await chargeWith(visitor, consentFor('quarterly_usd'), 'US', {
      plan: 'quarterly_usd',
      data: PLAN_DATA,
    });
    const [result] = await visitor.poll(started);
    expect(result?.status).toBe('succeeded');
    expect(await subscriptionsOf(email)).toEqual([
      expect.objectContaining({ text_version: RENEWAL_CONSENT_VERSION }),
    ]);
  });
});

describe('a visitor from a country that asks for no box', () => {
  it('pays without it, and nothing is recorded as consent', async () => {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    const [result] = await visitor.poll(await chargeWith(visitor, undefined, 'SG'));
    expect(result?.status).toBe('succeeded');
    expect(await subscriptionsOf(email)).toEqual([
      expect.objectContaining({ text_version: null, accepted_at: null }),
    ]);
  });
});

describe('upsells, bought with the card on file after the main purchase', () => {
  /** The upsell posted as its screen does, from `country`, with `consent` if any. */
  async function buyUpsell(
    visitor: ReturnType<typeof checkoutVisitor>,
    planId: string,
    country: string,
    consent?: unknown,
  ) {
    return visitor.call(
      `/api/users/me/subscriptions/${planId}`,
      {
        gateway: 'test',
        payment_method_nonce: null,
        coupon: planId.startsWith('upsell_') ? 'upsell_30' : null,
        payment_intent_id: null,
        user_data: { price: '9.99', currency: 'USD' },
        ...(consent === undefined ? {} : { renewal_consent: consent }),
      },
      { 'cf-ipcountry': country },
    );
  }

  /** A visitor who bought the main plan from `country`, the box ticked where it is asked. */
  async function paidVisitor(country: string) {
    const visitor = checkoutVisitor();
    const email = await visitor.signUp();
    await visitor.poll(await chargeWith(visitor, TICKED_RENEWAL_CONSENT, country));
    return { visitor, email };
  }

  it('a US visitor’s upsell that renews is refused without its own consent, and charged with it', async () => {
    const { visitor, email } = await paidVisitor('US');
    const refused = await buyUpsell(visitor, 'upsell_quarterly_999_usd', 'US');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'renewal_consent_required' });
    expect(await subscriptionsOf(email)).toHaveLength(1);
    const bought = await buyUpsell(
      visitor,
      'upsell_quarterly_999_usd',
      'US',
      TICKED_RENEWAL_CONSENT,
    );
    expect(bought.status).toBe(200);
    const kept = await subscriptionsOf(email);
    expect(kept).toHaveLength(2);
    expect(kept.every((row) => row.text_version === RENEWAL_CONSENT_VERSION)).toBe(true);
  });

  it('elsewhere pass without a consent', async () => {
    const { visitor } = await paidVisitor('SG');
    expect((await buyUpsell(visitor, 'upsell_quarterly_999_usd', 'SG')).status).toBe(200);
  });
});

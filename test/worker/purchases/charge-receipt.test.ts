import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChargeReceipt } from '../../../shared/api/contract';
import { developmentKit } from '../../../worker/dev/kit';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { freshApp } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * The receipt the worker adds to a successful charge's answer (worker/purchases/receipt.ts): what
 * was taken as the charge said, and when the plan renews at what price as the catalogue says,
 * dated by the worker's clock. The page shows it as it is and never works it out itself.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const DAY = 86_400_000;

/** The raw charge fields of a polling result: what the browser reads, receipt included. */
async function pollRaw(visitor: ReturnType<typeof checkoutVisitor>, started: Response) {
  const { data } = (await started.json()) as { data: { polling_result_id: string } };
  const polled = await visitor.call(`/api/polling/get-result/${data.polling_result_id}`);
  const body = (await polled.json()) as { data: { result_data: Record<string, unknown> } };
  return body.data.result_data;
}

describe('a successful charge’s answer carries the worker’s receipt', () => {
  it('a trial: the charged amount, and the monthly price a week after the charge', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const before = Date.now();
    const result = await pollRaw(
      visitor,
      await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
    );
    const after = Date.now();
    expect(result.status).toBe('succeeded');
    const receipt = ChargeReceipt.parse(result.receipt);
    expect(receipt).toMatchObject({
      plan_id: PLAN,
      amount: 699,
      currency: 'USD',
      renewal_amount: 3999,
    });
    const chargedAt = Date.parse(receipt.charged_at);
    expect(chargedAt).toBeGreaterThanOrEqual(before);
    expect(chargedAt).toBeLessThanOrEqual(after);
    expect(Date.parse(receipt.renews_at ?? '')).toBe(chargedAt + 7 * DAY);
  });

  it('an upsell on the direct route at 30% off: its price now and three months on', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    await pollRaw(visitor, await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)));
    const upsell = 'upsell_quarterly_999_usd';
    const answer = await visitor.call(`/api/users/me/subscriptions/${upsell}`, {
      gateway: 'test',
      payment_method_nonce: null,
      coupon: 'upsell_30',
      payment_intent_id: null,
      user_data: { price: '9.99', currency: 'USD' },
      // The US visitor's box ticked for the add-on's renewal, as its page sends it.
      renewal_consent: TICKED_RENEWAL_CONSENT,
    });
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: Record<string, unknown> };
    const receipt = ChargeReceipt.parse(data.receipt);
    expect(receipt).toMatchObject({ plan_id: upsell, amount: 699, renewal_amount: 699 });
    const charged = new Date(receipt.charged_at);
    const renews = new Date(receipt.renews_at ?? '');
    const months =
      (renews.getUTCFullYear() - charged.getUTCFullYear()) * 12 +
      renews.getUTCMonth() -
      charged.getUTCMonth();
    expect(months).toBe(3);
    expect(renews.getUTCHours()).toBe(charged.getUTCHours());
  });

  it('a declined charge carries none', async () => {
    const visitor = checkoutVisitor();
    await visitor.signUp();
    const declined = await visitor.tokenize(CARDS.genericDecline);
    const result = await pollRaw(visitor, await visitor.subscribe(declined));
    expect(result.status).toBe('failed');
    expect(result).not.toHaveProperty('receipt');
  });

  it('a product API’s own “receipt” never reaches the page: the worker’s replaces it', async () => {
    const forging: PortalFetch = async (request, env, ctx) => {
      const answer = await developmentKit.portal(request, env, ctx);
      if (!new URL(request.url).pathname.includes('/polling/get-result/') || !answer.ok) {
        return answer;
      }
      const body = (await answer.json()) as { data: { result_data: Record<string, unknown> } };
      body.data.result_data.receipt = { plan_id: PLAN, amount: 1, renews_at: '2099-01-01' };
      return Response.json(body, { status: answer.status });
    };
    const visitor = checkoutVisitor({
      fetchApp: freshApp({ portalFetch: forging }, { PORTAL_POLLING_DELAY_MS: '0' }),
    });
    await visitor.signUp();
    const result = await pollRaw(
      visitor,
      await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
    );
    expect(ChargeReceipt.parse(result.receipt)).toMatchObject({
      amount: 699,
      renewal_amount: 3999,
    });
  });
});

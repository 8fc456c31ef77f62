import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CheckoutPaymentProps } from '../../islands/CheckoutPayment';
import { ISLAND_ATTR, ISLAND_PROPS_ATTR } from '../../islands/protocol';
import { freshApp } from './fetch-app';

afterEach(async () => {
  await reset();
  vi.restoreAllMocks();
});

/** An attribute value as React escaped it, read back (HTMLRewriter hands it over as written). */
function unescapeAttribute(value: string): string {
  return value
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The props the checkout's payment island is rendered with on `path`. */
async function checkoutPaymentProps(
  bindings: Partial<Cloudflare.Env>,
  path = '/checkout_v3_tr',
): Promise<CheckoutPaymentProps> {
  // A visitor from Germany: the account's country is not theirs.
  const response = await freshApp({}, bindings)(path, { headers: { 'CF-IPCountry': 'DE' } });
  expect(response.status).toBe(200);
  let props: string | null = null;
  await new HTMLRewriter()
    .on(`[${ISLAND_ATTR}="CheckoutPayment"]`, {
      element(element) {
        props = element.getAttribute(ISLAND_PROPS_ATTR);
      },
    })
    .transform(response)
    .text();
  if (props === null) throw new Error(`no CheckoutPayment island on ${path}`);
  return JSON.parse(unescapeAttribute(props)) as CheckoutPaymentProps;
}

/** The JSON lines the worker logged with `warning` set. */
function warnings(log: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return log.mock.calls
    .map(([line]) => {
      try {
        return JSON.parse(String(line)) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .filter((line) => 'warning' in line);
}

describe("the Stripe account's country for Apple Pay and Google Pay (STRIPE_ACCOUNT_COUNTRY)", () => {
  it("is US as wrangler.toml sets it, whatever the visitor's country", async () => {
    expect(env.STRIPE_ACCOUNT_COUNTRY).toBe('US');
    const props = await checkoutPaymentProps({});
    expect(props.stripeAccountCountry).toBe('US');
  });

  it('reaches the payment island as configured, on checkouts and paywalls alike', async () => {
    for (const path of ['/checkout_v3_tr', '/checkout_h3_pp_braintree', '/paycheck_combo_3d']) {
      const props = await checkoutPaymentProps({ STRIPE_ACCOUNT_COUNTRY: 'GB' }, path);
      expect(props.stripeAccountCountry, path).toBe('GB');
    }
  });

  it('falls back to US with a warning line for the operator when malformed', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const props = await checkoutPaymentProps({ STRIPE_ACCOUNT_COUNTRY: 'United Kingdom' });
    expect(props.stripeAccountCountry).toBe('US');
    expect(warnings(log)).toEqual([
      expect.objectContaining({
        level: 'warn',
        warning: 'stripe_account_country_invalid',
        configured: 'United Kingdom',
        used: 'US',
      }),
    ]);
    // Lower case is malformed too: Stripe takes the code in capitals.
    const lower = await checkoutPaymentProps({ STRIPE_ACCOUNT_COUNTRY: 'gb' });
    expect(lower.stripeAccountCountry).toBe('US');
  });
});

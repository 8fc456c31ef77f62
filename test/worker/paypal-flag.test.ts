import { describe, expect, it } from 'vitest';
import { freshApp } from './fetch-app';
import { islandProps } from './page-html';

/**
 * SPEC.md §9: "The pay-pal flag is false". PayPal is off unless the deployment lists it in
 * PAYMENT_PROVIDERS; unset, the providers are Stripe and Braintree, and the checkout that forces
 * Braintree (checkout_h3_pp_braintree, SPEC.md §2) opens on the card.
 */

const US = { headers: { 'cf-ipcountry': 'US' } };

async function checkout(bindings: Partial<Cloudflare.Env>, path = '/checkout_h3_pp_braintree') {
  const response = await freshApp({}, bindings)(path, US);
  expect(response.status).toBe(200);
  const body = await response.text();
  const props = islandProps(body, 'CheckoutPayment') as {
    methods: { id: string }[];
  };
  return {
    body,
    methods: props.methods.map((method) => method.id),
    csp: response.headers.get('content-security-policy') ?? '',
  };
}

describe('PayPal off by default (PAYMENT_PROVIDERS unset)', () => {
  it('checkout_h3_pp_braintree opens on the card and offers no PayPal option', async () => {
    const page = await checkout({ PAYMENT_PROVIDERS: undefined });
    expect(page).toMatchObject({ methods: ['card'] });
    // No PayPal tab, headline, lead or logo; the pages admit none of PayPal's hosts.
    expect(page.body).not.toContain('/img/kit/paypal.svg');
    expect(page.body).not.toContain('Pay with PayPal or by card');
    expect(page.body).not.toContain('Pay securely by card or with PayPal.');
    expect(page.body).toContain('<p class="lead">Pay securely by card.</p>');
    expect(page.body).toContain('<p class="checkout-callout__title">A trial of 7 days</p>');
    expect(page.csp).not.toContain('paypal');
    // The card is still taken by the alternate provider the id names.
    expect(islandProps(page.body, 'CheckoutPayment')).toMatchObject({ forceDirect: true });
  });

  it.each(['/checkout_v3_tr', '/checkout_h3_pp', '/checkout_v3_pp'])(
    '%s offers no PayPal option either',
    async (path) => {
      const page = await checkout({ PAYMENT_PROVIDERS: undefined }, path);
      expect(page.methods).not.toContain('paypal');
      expect(page.body).not.toContain('/img/kit/paypal.svg');
    },
  );

  it('a deployment listing the card providers only has no PayPal either', async () => {
    const page = await checkout({ PAYMENT_PROVIDERS: 'stripe,braintree' });
    expect(page).toMatchObject({ methods: ['card'] });
  });
});

describe('PayPal turned on (PAYMENT_PROVIDERS lists paypal)', () => {
  it('checkout_h3_pp_braintree offers PayPal first, beside the card, as before', async () => {
    const page = await checkout({ PAYMENT_PROVIDERS: 'stripe,braintree,paypal' });
    expect(page).toMatchObject({ methods: ['paypal', 'card'] });
    expect(page.body).toContain('Pay with PayPal or by card');
    expect(page.body).toContain('Pay securely by card or with PayPal.');
    expect(page.body).toContain('/img/kit/paypal.svg');
    expect(page.csp).toContain('https://*.paypal.com');
  });
});

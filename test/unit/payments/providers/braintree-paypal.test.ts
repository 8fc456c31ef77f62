// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  createBraintreePayPalButton,
  type PayPalPurchase,
} from '../../../../islands/payments/providers/braintree-paypal';
import { fakeBraintreePayPal } from './fake-braintree-paypal';
import { providerRejection } from './provider-error';

function purchase(onApprove: PayPalPurchase['onApprove'] = async () => true): PayPalPurchase {
  return {
    clientToken: 'bt-client-token',
    amount: '29.99',
    currency: 'EUR',
    container: document.createElement('div'),
    onApprove,
    onTokenizeFailure: vi.fn(),
  };
}

describe('createBraintreePayPalButton', () => {
  it("loads PayPal's SDK for a billing agreement and renders PayPal's button into the container", async () => {
    const fake = fakeBraintreePayPal();
    const given = purchase();
    await createBraintreePayPalButton(given, fake.deps);
    expect(fake.clientCreate).toHaveBeenCalledExactlyOnceWith({ authorization: 'bt-client-token' });
    expect(fake.checkoutCreate).toHaveBeenCalledExactlyOnceWith({ client: fake.client });
    expect(fake.checkout.loadPayPalSDK).toHaveBeenCalledExactlyOnceWith({
      vault: true,
      intent: 'tokenize',
      currency: 'EUR',
    });
    expect(fake.rendered().fundingSource).toBe('paypal');
    expect(fake.buttons.render).toHaveBeenCalledExactlyOnceWith(given.container);
    expect(given.container.querySelector('[data-paypal-button]')).not.toBeNull();
  });

  it('on approval tokenizes the agreement and pays with its nonce', async () => {
    const fake = fakeBraintreePayPal();
    const onApprove = vi.fn(async () => true);
    await createBraintreePayPalButton(purchase(onApprove), fake.deps);
    await fake.approve();
    expect(fake.checkout.createPayment).toHaveBeenCalledExactlyOnceWith({
      flow: 'vault',
      amount: '29.99',
      currency: 'EUR',
    });
    expect(fake.checkout.tokenizePayment).toHaveBeenCalledExactlyOnceWith({
      payerId: 'PAYER1',
      billingToken: 'BA-1234',
    });
    expect(onApprove).toHaveBeenCalledExactlyOnceWith('nonce-for-BA-1234');
  });

  it('hands a failed tokenization to onTokenizeFailure and pays nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    const failure = new Error('Could not tokenize');
    fake.checkout.tokenizePayment.mockRejectedValue(failure);
    const onApprove = vi.fn(async () => true);
    const given = purchase(onApprove);
    await createBraintreePayPalButton(given, fake.deps);
    await fake.approve();
    expect(given.onTokenizeFailure).toHaveBeenCalledExactlyOnceWith(failure);
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('rejects card_form_unavailable and leaves nothing behind when braintree-web cannot load', async () => {
    const fake = fakeBraintreePayPal();
    fake.deps.paypalCheckout.mockRejectedValue(new Error('chunk failed'));
    const given = purchase();
    const error = await providerRejection(createBraintreePayPalButton(given, fake.deps));
    expect(error.problem).toBe('card_form_unavailable');
    expect(given.container.childElementCount).toBe(0);
  });

  it("rejects when PayPal's SDK does not load or PayPal is not offered to this browser", async () => {
    const missing = fakeBraintreePayPal({ sdkLoads: false });
    await providerRejection(createBraintreePayPalButton(purchase(), missing.deps));
    expect(missing.checkout.teardown).toHaveBeenCalledOnce();

    const ineligible = fakeBraintreePayPal({ eligible: false });
    const given = purchase();
    await providerRejection(createBraintreePayPalButton(given, ineligible.deps));
    expect(ineligible.buttons.render).not.toHaveBeenCalled();
  });

  it("removes PayPal's button and tears the component down once destroyed", async () => {
    const fake = fakeBraintreePayPal();
    const given = purchase();
    const button = await createBraintreePayPalButton(given, fake.deps);
    button.destroy();
    expect(fake.buttons.close).toHaveBeenCalledOnce();
    expect(fake.checkout.teardown).toHaveBeenCalledOnce();
    expect(given.container.childElementCount).toBe(0);
  });
});

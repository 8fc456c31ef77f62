// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  createBraintreePayPalButton,
  type PayPalPurchase,
} from '../../../../islands/payments/providers/braintree-paypal';
import { fakeBraintreePayPal } from './fake-braintree-paypal';
import { providerRejection } from './provider-error';

type PayPalFake = ReturnType<typeof fakeBraintreePayPal>;

function purchase(onApprove: PayPalPurchase['onApprove'] = async () => true): PayPalPurchase {
  return {
    clientToken: 'bt-client-token',
    amount: '29.99',
    currency: 'EUR',
    container: document.createElement('div'),
    onApprove,
    onFailure: vi.fn(),
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

  it.each([
    {
      step: 'an approval Braintree could not tokenize',
      breaks: (fake: PayPalFake, failure: Error) =>
        fake.checkout.tokenizePayment.mockRejectedValue(failure),
    },
    {
      step: 'a billing agreement PayPal could not create',
      breaks: (fake: PayPalFake, failure: Error) =>
        fake.checkout.createPayment.mockRejectedValue(failure),
    },
  ])('hands $step to onFailure and pays nothing', async ({ breaks }) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    const failure = new Error('PayPal could not go on');
    breaks(fake, failure);
    const onApprove = vi.fn(async () => true);
    const given = purchase(onApprove);
    await createBraintreePayPalButton(given, fake.deps);
    await fake.approve();
    expect(given.onFailure).toHaveBeenCalledExactlyOnceWith(failure);
    expect(onApprove).not.toHaveBeenCalled();
  });

  it("hands an error PayPal's SDK reports once the button is shown to onFailure", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    const given = purchase();
    await createBraintreePayPalButton(given, fake.deps);
    const failure = new Error('Window closed before response');
    fake.fail(failure);
    expect(given.onFailure).toHaveBeenCalledExactlyOnceWith(failure);
  });

  it("says nothing and pays nothing when the visitor cancels in PayPal's window", async () => {
    const fake = fakeBraintreePayPal();
    const onApprove = vi.fn(async () => true);
    const given = purchase(onApprove);
    await createBraintreePayPalButton(given, fake.deps);
    fake.cancel();
    expect(given.onFailure).not.toHaveBeenCalled();
    expect(onApprove).not.toHaveBeenCalled();
  });

  it('leaves an error while the button loads to the rejection, not to onFailure as well', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    fake.buttons.render.mockImplementation(async () => {
      fake.fail(new Error('zoid: container not found'));
      throw new Error('zoid: container not found');
    });
    const given = purchase();
    const error = await providerRejection(createBraintreePayPalButton(given, fake.deps));
    expect(error.problem).toBe('card_form_unavailable');
    expect(given.onFailure).not.toHaveBeenCalled();
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

  it('says nothing of what PayPal reports after its button was destroyed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    const given = purchase();
    const button = await createBraintreePayPalButton(given, fake.deps);
    button.destroy();
    fake.fail(new Error('zoid destroyed all components'));
    expect(given.onFailure).not.toHaveBeenCalled();
  });
});

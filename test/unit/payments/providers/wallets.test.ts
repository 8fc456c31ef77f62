import { describe, expect, it, vi } from 'vitest';
import { ProviderError } from '../../../../islands/payments/provider';
import {
  createStripeWalletButton,
  type WalletPurchase,
} from '../../../../islands/payments/providers/wallets';
import { fakeStripe } from './fake-stripe';

function purchase(onPaymentMethod: WalletPurchase['onPaymentMethod'] = async () => true) {
  return {
    publishableKey: 'pk_test_123',
    country: 'US',
    currency: 'usd',
    total: { label: 'Monthly plan', amount: 2999 },
    onPaymentMethod,
  } satisfies WalletPurchase;
}

describe('createStripeWalletButton', () => {
  it('offers no wallet when the browser can make no payment', async () => {
    const fake = fakeStripe({ canMakePayment: null });
    await expect(createStripeWalletButton(purchase(), fake)).resolves.toBeNull();
    expect(fake.paymentRequests[0]?.listeners).toBe(0);
  });

  it('offers no wallet when only other methods (Link) are available', async () => {
    const fake = fakeStripe({ canMakePayment: { applePay: false, googlePay: false, link: true } });
    await expect(createStripeWalletButton(purchase(), fake)).resolves.toBeNull();
  });

  it('builds the payment request from the purchase and names the wallets on offer', async () => {
    const fake = fakeStripe({ canMakePayment: { applePay: true, googlePay: false } });
    const button = await createStripeWalletButton(purchase(), fake);
    expect(fake.stripe.paymentRequest).toHaveBeenCalledExactlyOnceWith({
      country: 'US',
      currency: 'usd',
      total: { label: 'Monthly plan', amount: 2999 },
    });
    expect(button?.wallets).toEqual({ applePay: true, googlePay: false });
    button?.show();
    expect(fake.paymentRequests[0]?.shown).toHaveBeenCalledOnce();
  });

  it("hands the wallet's payment method to the purchase and completes the sheet with success", async () => {
    const fake = fakeStripe({ canMakePayment: { googlePay: true } });
    const onPaymentMethod = vi.fn(async () => true);
    await createStripeWalletButton(purchase(onPaymentMethod), fake);
    await expect(fake.paymentRequests[0]?.pay('pm_wallet')).resolves.toBe('success');
    expect(onPaymentMethod).toHaveBeenCalledExactlyOnceWith('pm_wallet', expect.anything());
    expect(fake.paymentRequests[0]?.completions).toEqual(['success']);
  });

  it('completes the sheet with fail when the purchase fails or throws', async () => {
    const declined = fakeStripe({ canMakePayment: { applePay: true } });
    await createStripeWalletButton(
      purchase(async () => false),
      declined,
    );
    await expect(declined.paymentRequests[0]?.pay('pm_1')).resolves.toBe('fail');
    expect(declined.paymentRequests[0]?.completions).toEqual(['fail']);

    const broken = fakeStripe({ canMakePayment: { applePay: true } });
    await createStripeWalletButton(
      purchase(async () => {
        throw new Error('network');
      }),
      broken,
    );
    await expect(broken.paymentRequests[0]?.pay('pm_2')).resolves.toBe('fail');
    expect(broken.paymentRequests[0]?.completions).toEqual(['fail']);
  });

  it('closes the sheet as soon as the purchase asks, and tells it nothing after that', async () => {
    const fake = fakeStripe({ canMakePayment: { applePay: true } });
    let finish = (_succeeded: boolean) => {};
    const purchaseDone = new Promise<boolean>((resolve) => {
      finish = resolve;
    });
    await createStripeWalletButton(
      purchase((_id, sheet) => {
        // As before a 3-D Secure challenge: the purchase goes on after the sheet closed.
        sheet.complete('success');
        sheet.complete('fail');
        return purchaseDone;
      }),
      fake,
    );
    // Resolves while the purchase is still running.
    await expect(fake.paymentRequests[0]?.pay('pm_3ds')).resolves.toBe('success');
    finish(false);
    await purchaseDone;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.paymentRequests[0]?.completions).toEqual(['success']);
  });

  it('stops listening once destroyed', async () => {
    const fake = fakeStripe({ canMakePayment: { applePay: true } });
    const button = await createStripeWalletButton(purchase(), fake);
    button?.destroy();
    expect(fake.paymentRequests[0]?.listeners).toBe(0);
  });

  it('rejects a ProviderError when Stripe.js cannot load', async () => {
    const fake = fakeStripe();
    fake.loadStripe.mockRejectedValue(new Error('blocked'));
    await expect(createStripeWalletButton(purchase(), fake)).rejects.toBeInstanceOf(ProviderError);
  });
});

import type { Client } from 'braintree-web/client';
import type { PayPalCheckoutTokenizationOptions } from 'braintree-web/paypal-checkout';
import type { AuthorizationResponse, CancellationData } from 'paypal-checkout-components';
import { vi } from 'vitest';
import type {
  BraintreePayPalCheckout,
  BraintreePayPalDeps,
  PayPalButtonsInstance,
  PayPalButtonsOptions,
  PayPalSdk,
} from '../../../../islands/payments/providers/braintree-paypal';

/**
 * braintree-web's PayPal Checkout component and PayPal's SDK global, with the SDKs' own result
 * types (AuthorizationResponse); records the Buttons options so a test can play PayPal's window.
 */
export function fakeBraintreePayPal(options: { eligible?: boolean; sdkLoads?: boolean } = {}) {
  const client = { authorization: 'fake' } as unknown as Client;
  const checkout = {
    loadPayPalSDK: vi.fn<BraintreePayPalCheckout['loadPayPalSDK']>(async () => undefined),
    createPayment: vi.fn<BraintreePayPalCheckout['createPayment']>(async () => 'BA-1234'),
    tokenizePayment: vi.fn(
      async (data: PayPalCheckoutTokenizationOptions): Promise<AuthorizationResponse> => ({
        nonce: `nonce-for-${data.billingToken ?? data.payerId}`,
        type: 'PayPalAccount',
        details: {
          email: 'ada@example.com',
          payerId: data.payerId,
          firstName: 'Ada',
          lastName: 'L',
        },
      }),
    ),
    teardown: vi.fn(async () => {}),
  } satisfies BraintreePayPalCheckout;
  let buttonsOptions: PayPalButtonsOptions | null = null;
  const buttons = {
    isEligible: vi.fn(() => options.eligible ?? true),
    render: vi.fn(async (container: HTMLElement) => {
      // PayPal puts its button (an iframe) into the container.
      const button = document.createElement('div');
      button.dataset.paypalButton = 'paypal';
      container.appendChild(button);
    }),
    close: vi.fn(async () => {}),
  } satisfies PayPalButtonsInstance;
  const sdk: PayPalSdk = {
    Buttons: vi.fn((given: PayPalButtonsOptions) => {
      buttonsOptions = given;
      return buttons;
    }),
  };
  const clientCreate = vi.fn(async (_options: { authorization: string }) => client);
  const checkoutCreate = vi.fn(async (_options: { client: Client }) => checkout);
  const deps = {
    client: vi.fn(async () => ({ create: clientCreate })),
    paypalCheckout: vi.fn(async () => ({ create: checkoutCreate })),
    paypalSdk: () => (options.sdkLoads === false ? null : sdk),
  } satisfies BraintreePayPalDeps;

  function rendered(): PayPalButtonsOptions {
    if (!buttonsOptions) throw new Error('PayPal Buttons were not created');
    return buttonsOptions;
  }
  return {
    deps,
    client,
    clientCreate,
    checkoutCreate,
    checkout,
    buttons,
    sdk,
    /**
     * PayPal's window: the billing agreement is created, then the visitor approves it. As in
     * PayPal's SDK, what either step throws goes to onError.
     */
    async approve(): Promise<void> {
      try {
        const billingToken = (await rendered().createBillingAgreement?.()) ?? '';
        await rendered().onApprove({ payerId: 'PAYER1', billingToken });
      } catch (error) {
        rendered().onError?.(error as string);
      }
    },
    /** The visitor closes PayPal's window without approving. */
    cancel(): void {
      rendered().onCancel?.({} as CancellationData, {});
    },
    /** PayPal's SDK reports an error of its own (a window that failed, a button that broke). */
    fail(error: unknown): void {
      rendered().onError?.(error as string);
    },
    rendered,
  };
}

// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CheckoutPayment from '../../../islands/CheckoutPayment';
import type { PaymentMethodId } from '../../../islands/kit/payment-methods';
import { type CardProvider, ProviderError } from '../../../islands/payments/provider';
import { loadPayPalButton, loadWalletButton } from '../../../islands/payments/providers';
import { createBraintreePayPalButton } from '../../../islands/payments/providers/braintree-paypal';
import { createStripeWalletButton } from '../../../islands/payments/providers/wallets';
import { purchase, resumePurchase } from '../../../islands/payments/purchase';
import { $cardForm, mountCardFields, mountedCardFields } from '../../../islands/stores/card-form';
import { $checkout } from '../../../islands/stores/checkout';
import { $error } from '../../../islands/stores/error';
import { $paymentPhase } from '../../../islands/stores/payment';
import { paymentStoreDeps } from '../../../islands/stores/payment-deps';
import { $plans } from '../../../islands/stores/plans';
import { $signup } from '../../../islands/stores/signup';
import { checkoutPaymentProps } from '../../../screens/plans/payment-method-props';
import type { ScreenProps } from '../../../screens/types';
import { SCREEN_OFFERS } from '../../../shared/plans/screen-offers';
import { englishT, renderScreenProps } from '../plans/render-screen';
import { type FakeApiScript, fakeProvider, final, succeeded, world } from './fakes';
import { fakeBraintreePayPal } from './providers/fake-braintree-paypal';
import { fakeStripe } from './providers/fake-stripe';

/**
 * The checkout's one-click payments end to end in the island: the SDK fakes behind the real
 * adapters, the real payment state machine over the fake portal (./fakes), and the card
 * provider the page mounted. Only the provider's loading and the SDK scripts are stood in.
 */
vi.mock('../../../islands/stores/card-form', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/stores/card-form')>()),
  mountCardFields: vi.fn(),
  mountedCardFields: vi.fn(),
}));
vi.mock('../../../islands/payments/providers', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/payments/providers')>()),
  loadWalletButton: vi.fn(),
  loadPayPalButton: vi.fn(),
}));
vi.mock('../../../islands/stores/payment-deps', () => ({ paymentStoreDeps: vi.fn() }));

const t = englishT();
const NOT_AUTHENTICATED =
  'We could not authenticate your payment method. Please choose a different payment method and try again.';

const requiresAction = final({
  status: 'requires_action',
  payment_intent_secret: 'pi_3ds_secret',
  payment_intent_id: 'pi_3ds',
});

/** The Stripe provider the page mounted, its calls recorded. */
const stripeProvider = () => ({ ...fakeProvider(), id: 'stripe' as const });

/**
 * A signed-up visitor whose portal names `gateway`, with the card fields mounted; purchases run
 * the state machine over a portal playing `script`, with whatever provider the island hands to
 * paymentStoreDeps.
 */
function signedUp(gateway: 'stripe' | 'braintree', script: FakeApiScript, mounted: CardProvider) {
  $signup.set({
    ...$signup.get(),
    isSuccess: true,
    email: 'ada@example.com',
    uuid: 'u-1',
    paymentProvider: gateway,
    stripe: { key: 'pk_test_123', name: 'Geofunnel' },
    btToken: 'bt-client-token',
    userLocation: 'de',
  });
  $plans.set({
    ...$plans.get(),
    plan: 'monthly',
    planDetails: { id: 'monthly', currency: 'EUR', periodPrice: '29.99', coupon: null },
  });
  vi.mocked(mountedCardFields).mockReturnValue({
    provider: mounted,
    choice:
      gateway === 'stripe'
        ? { id: 'stripe', route: 'polling' }
        : { id: 'braintree', route: 'direct' },
  });
  vi.mocked(mountCardFields).mockImplementation(async () => {
    $cardForm.set('ready');
    return () => {};
  });
  const portal = world({ script });
  const navigate = vi.fn();
  vi.mocked(paymentStoreDeps).mockImplementation((provider) => ({
    purchase: (request) => purchase(request, { ...portal.deps, provider }),
    resumePurchase: () => resumePurchase({ ...portal.deps, provider }),
    unfinishedPlan: () => null,
    navigate,
    sleep: async () => {},
  }));
  return { portal, navigate };
}

/** The payment error the form shows beside Pay (islands/stores/payment-error.ts): no toast repeats it. */
const besidePay = () => $checkout.get().paymentError;

function renderCheckout(
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]],
  screen: Partial<ScreenProps> = {},
) {
  render(
    <CheckoutPayment
      {...checkoutPaymentProps(
        // A country that asks no renewal box (the box's own tests: checkout-payment.test.tsx).
        { ...renderScreenProps(t), country: 'SG', ...screen },
        { layout: 'vertical', methods, offer: SCREEN_OFFERS.checkout_v3_tr },
      )}
    />,
  );
}

/** A Stripe visitor offered Apple Pay, the page opened on the wallet. */
function stripeCheckout(
  script: FakeApiScript,
  mounted = stripeProvider(),
  screen: Partial<ScreenProps> = {},
) {
  const { portal, navigate } = signedUp('stripe', script, mounted);
  const stripe = fakeStripe({ canMakePayment: { applePay: true } });
  vi.mocked(loadWalletButton).mockImplementation((wallet) =>
    createStripeWalletButton(wallet, stripe),
  );
  renderCheckout(['wallet', 'card'], screen);
  return { mounted, portal, navigate, stripe };
}

/** A Braintree visitor, the page opened on PayPal; resolves once PayPal's button is shown. */
async function paypalCheckout() {
  const { portal } = signedUp('braintree', {}, fakeProvider());
  const paypal = fakeBraintreePayPal();
  vi.mocked(loadPayPalButton).mockImplementation((button) =>
    createBraintreePayPalButton(button, paypal.deps),
  );
  renderCheckout(['paypal', 'card']);
  await waitFor(() =>
    expect(document.querySelector('[data-paypal-button]')?.closest('[hidden]')).toBeNull(),
  );
  return { paypal, portal };
}

/** The visitor pays in the wallet's sheet; resolves the status the sheet was first given. */
async function payInSheet(stripe: ReturnType<typeof fakeStripe>): Promise<string> {
  await screen.findByRole('button', { name: 'Pay with Apple Pay' });
  let status = '';
  await act(async () => {
    status = (await stripe.paymentRequests[0]?.pay('pm_wallet')) ?? '';
  });
  return status;
}

beforeEach(() => {
  $error.set({ show: false, message: '' });
  $checkout.set({
    ...$checkout.get(),
    isSuccess: null,
    showSuccessPopup: false,
    paymentError: { show: false, message: '' },
  });
});

afterEach(() => {
  cleanup();
  vi.mocked(mountCardFields).mockReset();
  vi.mocked(mountedCardFields).mockReset();
  vi.mocked(loadWalletButton).mockReset();
  vi.mocked(loadPayPalButton).mockReset();
  vi.mocked(paymentStoreDeps).mockReset();
  $paymentPhase.set('idle');
  $cardForm.set('loading');
  $signup.setKey('isSuccess', false);
});

it("builds the wallet's payment request with the Stripe account's country, not the visitor's", async () => {
  // The visitor signed up from Germany (userLocation 'de'); the account is British.
  const { stripe } = stripeCheckout({}, stripeProvider(), { stripeAccountCountry: 'GB' });
  await screen.findByRole('button', { name: 'Pay with Apple Pay' });
  expect(stripe.stripe.paymentRequest).toHaveBeenCalledExactlyOnceWith({
    country: 'GB',
    currency: 'eur',
    total: { label: 'Total today', amount: 2999 },
  });
});

describe('a wallet payment Stripe asks to authenticate (SPEC.md §4 Payment step 4)', () => {
  it('closes the sheet with success before the 3-D Secure challenge opens, then pays', async () => {
    let sheetAtChallenge: string[] = [];
    const mounted = stripeProvider();
    const { stripe, navigate, portal } = stripeCheckout(
      { poll: async (id) => (id === 'poll_1' ? requiresAction : final(succeeded('sub_3ds'))) },
      mounted,
    );
    vi.mocked(mounted.confirmCardPayment).mockImplementation(async () => {
      sheetAtChallenge = [...(stripe.paymentRequests[0]?.completions ?? [])];
      return 'pi_3ds';
    });
    expect(await payInSheet(stripe)).toBe('success');
    // Paid: the receipt dialog confirms it, and its Continue (not the payment) moves on.
    await waitFor(() => expect($checkout.get().showSuccessPopup).toBe(true));
    expect(navigate).not.toHaveBeenCalled();
    expect(mounted.confirmCardPayment).toHaveBeenCalledExactlyOnceWith('pi_3ds_secret');
    expect(sheetAtChallenge).toEqual(['success']);
    expect(stripe.paymentRequests[0]?.completions).toEqual(['success']);
    expect(portal.portal.posts.map((post) => post.body.payment_intent_id)).toEqual([
      null,
      'pi_3ds',
    ]);
  });

  it("shows SPEC.md §8's error on the page when the challenge fails after the sheet closed, telling the sheet once", async () => {
    const mounted = stripeProvider();
    vi.mocked(mounted.confirmCardPayment).mockRejectedValue(
      ProviderError.of('payment_not_authenticated'),
    );
    const { stripe, navigate } = stripeCheckout({ poll: async () => requiresAction }, mounted);
    expect(await payInSheet(stripe)).toBe('success');
    await waitFor(() => expect(besidePay()).toEqual({ show: true, message: NOT_AUTHENTICATED }));
    expect($error.get().show).toBe(false);
    expect(stripe.paymentRequests[0]?.completions).toEqual(['success']);
    expect(navigate).not.toHaveBeenCalled();
    // The form is usable again: the visitor may pick another method.
    expect($paymentPhase.get()).toBe('idle');
  });

  it('closes the sheet once with fail when the charge fails without a challenge', async () => {
    const { stripe, mounted } = stripeCheckout({
      poll: async () => final({ status: 'failed', processor_response: 'Processor unavailable.' }),
    });
    expect(await payInSheet(stripe)).toBe('fail');
    await waitFor(() =>
      expect(besidePay()).toEqual({ show: true, message: 'Processor unavailable.' }),
    );
    expect($error.get().show).toBe(false);
    expect(stripe.paymentRequests[0]?.completions).toEqual(['fail']);
    expect(mounted.confirmCardPayment).not.toHaveBeenCalled();
  });

  it('closes the sheet once with success when the charge succeeds without a challenge', async () => {
    const { stripe, navigate } = stripeCheckout({});
    expect(await payInSheet(stripe)).toBe('success');
    await waitFor(() => expect($checkout.get().showSuccessPopup).toBe(true));
    expect(navigate).not.toHaveBeenCalled();
    expect(stripe.paymentRequests[0]?.completions).toEqual(['success']);
  });
});

describe("PayPal's failures reach the visitor (SPEC.md §8 Payment)", () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it("shows the message of an error PayPal's SDK reports, charging nothing", async () => {
    const { paypal, portal } = await paypalCheckout();
    act(() => paypal.fail(new Error('Window closed before response')));
    expect(besidePay()).toEqual({ show: true, message: 'Window closed before response' });
    expect($error.get().show).toBe(false);
    expect(portal.portal.posts).toEqual([]);
    expect($paymentPhase.get()).toBe('idle');
  });

  it("shows 'Payment error' when the billing agreement fails without words of its own", async () => {
    const { paypal, portal } = await paypalCheckout();
    paypal.checkout.createPayment.mockRejectedValue({});
    await act(() => paypal.approve());
    expect(besidePay()).toEqual({ show: true, message: 'Payment error' });
    expect($error.get().show).toBe(false);
    expect(portal.portal.posts).toEqual([]);
  });

  it("says nothing when the visitor cancels in PayPal's window", async () => {
    const { paypal, portal } = await paypalCheckout();
    act(() => paypal.cancel());
    expect($error.get()).toEqual({ show: false, message: '' });
    expect(besidePay().show).toBe(false);
    expect(portal.portal.posts).toEqual([]);
  });
});

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import CheckoutPayment, { type CheckoutPaymentProps } from '../../../islands/CheckoutPayment';
import ErrorToast from '../../../islands/ErrorToast';
import type { PaymentMethodId } from '../../../islands/kit/payment-methods';
import PlanChoice, { type PlanChoiceProps } from '../../../islands/PlanChoice';
import type { CardProvider } from '../../../islands/payments/provider';
import { loadPayPalButton, loadWalletButton } from '../../../islands/payments/providers';
import { createBraintreePayPalButton } from '../../../islands/payments/providers/braintree-paypal';
import { createStripeWalletButton } from '../../../islands/payments/providers/wallets';
import type { PurchaseOutcome, PurchaseRequest } from '../../../islands/payments/purchase-types';
import {
  $cardForm,
  $cardProblems,
  mountCardFields,
  mountedCardFields,
} from '../../../islands/stores/card-form';
import { $checkout } from '../../../islands/stores/checkout';
import { $error, TOAST_DISMISS_MS } from '../../../islands/stores/error';
import { $offerEnded } from '../../../islands/stores/offer';
import { $paymentPhase } from '../../../islands/stores/payment';
import { paymentStoreDeps } from '../../../islands/stores/payment-deps';
import { $plans } from '../../../islands/stores/plans';
import { $signup } from '../../../islands/stores/signup';
import { checkoutPaymentProps } from '../../../screens/plans/payment-method-props';
import { RENEWAL_CONSENT_VERSION } from '../../../shared/plans/renewal-consent';
import { SCREEN_OFFERS } from '../../../shared/plans/screen-offers';
import { serverThenHydrate } from '../kit/hydrate';
import { storeDeps } from '../payments/fakes';
import { fakeBraintreePayPal } from '../payments/providers/fake-braintree-paypal';
import { fakeStripe } from '../payments/providers/fake-stripe';
import { englishT, islandProps, renderScreen, renderScreenProps, textOf } from './render-screen';

// The real stores and loaders unless a test says otherwise: those tests stand in a mounted
// provider, the SDK fakes behind the real adapters, and the purchase's answer.
vi.mock('../../../islands/stores/card-form', async (importActual) => {
  const actual = await importActual<typeof import('../../../islands/stores/card-form')>();
  return {
    ...actual,
    mountCardFields: vi.fn(actual.mountCardFields),
    mountedCardFields: vi.fn(actual.mountedCardFields),
  };
});
vi.mock('../../../islands/payments/providers', async (importActual) => {
  const actual = await importActual<typeof import('../../../islands/payments/providers')>();
  return {
    ...actual,
    loadWalletButton: vi.fn(actual.loadWalletButton),
    loadPayPalButton: vi.fn(actual.loadPayPalButton),
  };
});
vi.mock('../../../islands/stores/payment-deps', () => ({ paymentStoreDeps: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.mocked(mountCardFields).mockRestore();
  vi.mocked(mountedCardFields).mockRestore();
  vi.mocked(loadWalletButton).mockRestore();
  vi.mocked(loadPayPalButton).mockRestore();
  vi.useRealTimers();
  $paymentPhase.set('idle');
  $checkout.setKey('paymentError', { show: false, message: '' });
  $checkout.setKey('showSuccessPopup', false);
  $error.set({ show: false, message: '' });
  // As on a page load: the card fields load with the form.
  $cardForm.set('loading');
  $cardProblems.set(null);
  $signup.setKey('isSuccess', false);
});

const t = englishT();
const cardForm = () => document.querySelector('.card-form') as HTMLElement;

/** A checkout's form, for a visitor from a country that asks for no renewal box unless said. */
function PaymentMethodChoice({
  layout,
  methods,
  country = 'SG',
}: {
  layout: 'vertical' | 'horizontal';
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]];
  country?: string;
}) {
  const props = checkoutPaymentProps(
    { ...renderScreenProps(t), country },
    { layout, methods, offer: SCREEN_OFFERS.checkout_v3_tr },
  );
  return <CheckoutPayment {...props} />;
}
const paymentMethodProps = (
  _t: unknown,
  layout: 'vertical' | 'horizontal',
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]],
) => ({ layout, methods, offer: SCREEN_OFFERS.checkout_v3_tr });

describe('payment form without an account on this browser (SPEC.md §4 Payment settings)', () => {
  it('says to create the account first and keeps Pay disabled', async () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    expect(await screen.findByText('Create your account first, then pay here.')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Start trial for $6.99' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
  });

  it('asks nothing of the name on card: it is optional, with its label and autocomplete', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    const name = screen.getByLabelText('Name on card (optional)') as HTMLInputElement;
    expect(name.required).toBe(false);
    expect(name.getAttribute('autocomplete')).toBe('cc-name');
  });
});

describe("a paywall's call to action (SPEC.md §3 showCheckout)", () => {
  it('is held in the server HTML until its island answers it, then opens the form', async () => {
    const props = checkoutPaymentProps(renderScreenProps(t), {
      layout: 'vertical',
      methods: ['card'],
      offer: SCREEN_OFFERS.paycheck1_pr5_h_win,
    });
    const { container, serverHtml, problems, root } = await serverThenHydrate(
      <CheckoutPayment {...props} gateLabel="Start my trial" />,
    );
    onTestFinished(() => {
      act(() => root.unmount());
      container.remove();
      $plans.setKey('showCheckout', false);
    });
    expect(serverHtml).toMatch(/<button id="continue-button"[^>]*aria-disabled="true"/);
    expect(problems).toEqual([]);
    const cta = container.querySelector('#continue-button') as HTMLButtonElement;
    expect(cta.textContent).toBe('Start my trial');
    expect(cta.hasAttribute('aria-disabled')).toBe(false);
    await userEvent.click(cta);
    expect(container.querySelector('form.payment-form')).not.toBeNull();
  });
});

describe('payment methods', () => {
  it('shows the card form and Pay, and no one-click method before a provider confirms one', () => {
    const { container } = render(
      <PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['wallet', 'card', 'paypal'])} />,
    );
    expect(cardForm().hidden).toBe(false);
    expect(screen.getByRole('button', { name: 'Start trial for $6.99' })).toBeTruthy();
    expect(screen.queryAllByRole('radio')).toEqual([]);
    expect(screen.queryByRole('group', { name: 'One-click payment' })).toBeNull();
    expect(container.textContent).not.toMatch(/Apple Pay|Google Pay|PayPal|not available/);
  });

  it('lays the one-click methods out as rows (v3) or side by side (h3)', () => {
    const { container, rerender } = render(
      <PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />,
    );
    expect(container.firstElementChild?.className).toBe(
      'payment-form payment-methods payment-methods--vertical',
    );
    rerender(<PaymentMethodChoice {...paymentMethodProps(t, 'horizontal', ['card'])} />);
    expect(container.firstElementChild?.className).toBe(
      'payment-form payment-methods payment-methods--horizontal',
    );
  });
});

const provider = { id: 'stripe' } as CardProvider;

/** A signed-up visitor whose portal names `gateway`, with the card fields mounted. */
function signedUpWith(gateway: 'stripe' | 'braintree' | 'test') {
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
  const choice =
    gateway === 'braintree'
      ? ({ id: 'braintree', route: 'direct' } as const)
      : ({ id: gateway, route: 'polling' } as const);
  vi.mocked(mountedCardFields).mockReturnValue({ provider, choice });
  vi.mocked(mountCardFields).mockImplementation(async () => {
    $cardForm.set('ready');
    return () => {};
  });
  purchaseAnswers(succeeded);
}

/** The purchase answers `outcome`; navigation is recorded. */
function purchaseAnswers(outcome: PurchaseOutcome) {
  const purchase = vi.fn(async (_request: PurchaseRequest) => outcome);
  const deps = storeDeps(purchase);
  vi.mocked(paymentStoreDeps).mockReturnValue(deps);
  return { purchase, deps };
}

const succeeded: PurchaseOutcome = {
  kind: 'succeeded',
  subscriptionId: 'sub_1',
  eventId: null,
  priceWithDiscount: null,
};

function walletsOffered(
  canMakePayment: Record<string, boolean> | null | Promise<Record<string, boolean> | null>,
) {
  const fake = fakeStripe({ canMakePayment });
  vi.mocked(loadWalletButton).mockImplementation((purchase) =>
    createStripeWalletButton(purchase, fake),
  );
  return fake;
}

describe('one-click payment with Stripe (SPEC.md §2, §4 Payment step 2)', () => {
  it("offers the wallet under Pay once Stripe's canMakePayment says this device has it", async () => {
    signedUpWith('stripe');
    const fake = walletsOffered({ applePay: true, googlePay: false });
    render(<PaymentMethodChoice layout="vertical" methods={['wallet', 'card']} />);
    const wallet = await screen.findByRole('button', { name: 'Pay with Apple Pay' });
    expect(fake.stripe.paymentRequest).toHaveBeenCalledExactlyOnceWith({
      // The Stripe account's country (STRIPE_ACCOUNT_COUNTRY, 'US' unless set), not the visitor's.
      country: 'US',
      currency: 'eur',
      total: { label: 'Total today', amount: 2999 },
    });
    expect(screen.getByRole('group', { name: 'One-click payment' }).hidden).toBe(false);
    // The card stays as it was, Pay above the wallet: nothing the visitor uses moves.
    const pay = screen.getByRole('button', { name: 'Start trial for $6.99' });
    expect(pay.compareDocumentPosition(wallet) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(cardForm().hidden).toBe(false);
    await userEvent.setup().click(wallet);
    expect(fake.paymentRequests[0]?.shown).toHaveBeenCalledOnce();
  });

  it('pays with the payment method the sheet hands over and closes it with success', async () => {
    signedUpWith('stripe');
    const fake = walletsOffered({ googlePay: true });
    const { purchase, deps } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="vertical" methods={['wallet', 'card']} />);
    await screen.findByRole('button', { name: 'Pay with Google Pay' });
    let status = '';
    await act(async () => {
      status = (await fake.paymentRequests[0]?.pay('pm_wallet')) ?? '';
    });
    expect(status).toBe('success');
    expect(purchase).toHaveBeenCalledOnce();
    expect(purchase.mock.calls[0]?.[0]).toMatchObject({
      planId: 'monthly',
      route: 'polling',
      gateway: 'stripe',
      method: { kind: 'nonce', nonce: 'pm_wallet' },
    });
    // Paid: the receipt dialog confirms it, and its Continue (not the payment) moves on.
    expect($checkout.get().showSuccessPopup).toBe(true);
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('closes the sheet with fail when the purchase is declined or fails', async () => {
    signedUpWith('stripe');
    const fake = walletsOffered({ applePay: true });
    purchaseAnswers({ kind: 'declined', declineCode: 'card_declined', text: { text: 'Declined' } });
    render(<PaymentMethodChoice layout="vertical" methods={['wallet', 'card']} />);
    await screen.findByRole('button', { name: 'Pay with Apple Pay' });
    let status = '';
    await act(async () => {
      status = (await fake.paymentRequests[0]?.pay('pm_declined')) ?? '';
    });
    expect(status).toBe('fail');
  });

  it('never shows a wallet this device does not have, nor says it is unavailable', async () => {
    signedUpWith('stripe');
    const fake = walletsOffered(null);
    const { container } = render(
      <PaymentMethodChoice layout="vertical" methods={['wallet', 'card']} />,
    );
    await waitFor(() => expect(fake.paymentRequests).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /Pay with/ })).toBeNull();
    expect(screen.queryByRole('group', { name: 'One-click payment' })).toBeNull();
    expect(container.textContent).not.toMatch(/not available/);
    expect(
      (screen.getByRole('button', { name: 'Start trial for $6.99' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    // Nor did the worker's HTML, before the island asked: the one-click checkout's page.
    const { document: page } = await renderScreen('checkout_v3_pp');
    expect(page.querySelector('form.payment-form')).not.toBeNull();
    expect(textOf(page.querySelector('main'))).not.toMatch(
      /Apple Pay|Google Pay|one tap|one click|one-click|not available/i,
    );
  });

  it('shows only Apple Pay where the screen names Apple Pay and the device has Google Pay alone', async () => {
    signedUpWith('stripe');
    const fake = walletsOffered({ applePay: false, googlePay: true });
    render(<PaymentMethodChoice layout="vertical" methods={['apple_pay', 'card']} />);
    await waitFor(() => expect(fake.paymentRequests).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByRole('button', { name: /Pay with/ })).toBeNull();
  });

  it('asks no wallet of the test gateway, which has none', async () => {
    signedUpWith('test');
    render(<PaymentMethodChoice layout="vertical" methods={['card', 'wallet']} />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    expect(loadWalletButton).not.toHaveBeenCalled();
    expect(screen.queryByRole('group', { name: 'One-click payment' })).toBeNull();
  });
});

describe("the combo paywall's Apple Pay first (SPEC.md §2 3-day combo paywall)", () => {
  it('pressed before Stripe answers, opens its card form only under the wallet, never above where it lands', async () => {
    signedUpWith('stripe');
    let answer: (wallets: Record<string, boolean>) => void = () => {};
    walletsOffered(new Promise((resolve) => (answer = resolve)));
    const props = checkoutPaymentProps(
      { ...renderScreenProps(t), country: 'SG' },
      {
        layout: 'vertical',
        methods: ['apple_pay', 'card'],
        offer: SCREEN_OFFERS.paycheck_combo_3d,
      },
    );
    const { container } = render(<CheckoutPayment {...props} gateLabel="Start my 3-day trial" />);
    // Each time the page changed with the card form open (not behind the gate, of no height):
    // whether the wallet's buttons stood above it, where the browser lays them out first.
    const cardShown: boolean[] = [];
    const observer = new MutationObserver(() => {
      const card = container.querySelector(
        'form.payment-form:not(.payment-methods--behind-gate) .card-form',
      );
      const wallet = container.querySelector('.payment-methods__one-click--first');
      if (card) {
        cardShown.push(
          Boolean(
            wallet && wallet.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING,
          ),
        );
      }
    });
    observer.observe(container, { subtree: true, childList: true, attributes: true });
    onTestFinished(() => observer.disconnect());

    const gate = await screen.findByRole('button', { name: 'Start my 3-day trial' });
    await userEvent.click(gate);
    // Pressed: the gate says it is working and the form waits behind it for Stripe's answer.
    expect(gate.getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('form.payment-methods--behind-gate')).not.toBeNull();
    expect(cardShown).toEqual([]);

    await act(async () => answer({ applePay: true, googlePay: false }));
    const wallet = await screen.findByRole('button', { name: 'Pay with Apple Pay' });
    expect(container.querySelector('form.payment-methods--behind-gate')).toBeNull();
    expect(
      wallet.compareDocumentPosition(cardForm()) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(cardShown.length).toBeGreaterThan(0);
    expect(cardShown.every(Boolean)).toBe(true);
  });
});

describe('PayPal with Braintree (SPEC.md §2, §4 Payment step 2)', () => {
  it("renders PayPal's button under Pay and pays the approved nonce on the direct route", async () => {
    signedUpWith('braintree');
    const fake = fakeBraintreePayPal();
    vi.mocked(loadPayPalButton).mockImplementation((purchase) =>
      createBraintreePayPalButton(purchase, fake.deps),
    );
    const { purchase } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="horizontal" methods={['paypal', 'card']} />);
    await waitFor(() =>
      expect(document.querySelector('[data-paypal-button]')?.closest('[hidden]')).toBeNull(),
    );
    expect(fake.checkout.createPayment).not.toHaveBeenCalled();
    await act(() => fake.approve());
    expect(fake.checkout.createPayment).toHaveBeenCalledWith({
      flow: 'vault',
      amount: '29.99',
      currency: 'EUR',
    });
    expect(purchase.mock.calls[0]?.[0]).toMatchObject({
      route: 'direct',
      gateway: 'braintree',
      method: { kind: 'nonce', nonce: 'nonce-for-BA-1234' },
    });
  });

  it("shows SPEC.md §8's 'Payment error' when PayPal's approval cannot be tokenized, charging nothing", async () => {
    signedUpWith('braintree');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = fakeBraintreePayPal();
    // A failure without words of its own.
    fake.checkout.tokenizePayment.mockRejectedValue({});
    vi.mocked(loadPayPalButton).mockImplementation((purchase) =>
      createBraintreePayPalButton(purchase, fake.deps),
    );
    const { purchase } = purchaseAnswers(succeeded);
    $error.set({ show: false, message: '' });
    render(<PaymentMethodChoice layout="horizontal" methods={['paypal', 'card']} />);
    await waitFor(() => expect(document.querySelector('[data-paypal-button]')).not.toBeNull());
    await act(() => fake.approve());
    // Beside Pay (SPEC.md §3 paymentError), once: the form shows it, so no toast repeats it.
    expect(paymentErrorNote()?.textContent).toBe('Payment error');
    expect($error.get().show).toBe(false);
    expect(purchase).not.toHaveBeenCalled();
    expect($paymentPhase.get()).toBe('idle');
  });

  it('leaves PayPal out, saying nothing, when its SDK fails; the card pays', async () => {
    signedUpWith('braintree');
    const fake = fakeBraintreePayPal({ sdkLoads: false });
    vi.mocked(loadPayPalButton).mockImplementation((purchase) =>
      createBraintreePayPalButton(purchase, fake.deps),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(
      <PaymentMethodChoice layout="horizontal" methods={['card', 'paypal']} />,
    );
    await waitFor(() => expect(loadPayPalButton).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('group', { name: 'One-click payment' })).toBeNull();
    expect(container.textContent).not.toMatch(/PayPal/);
    expect(payButton().disabled).toBe(false);
  });

  it('offers no PayPal where the provider is Stripe', async () => {
    signedUpWith('stripe');
    render(<PaymentMethodChoice layout="horizontal" methods={['card', 'paypal']} />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    expect(loadPayPalButton).not.toHaveBeenCalled();
    expect(screen.queryByRole('group', { name: 'One-click payment' })).toBeNull();
  });
});

const paymentErrorNote = () => document.querySelector<HTMLElement>('.payment-methods__error');
const payButton = () =>
  screen.getByRole<HTMLButtonElement>('button', { name: 'Start trial for $6.99' });
const FAILED: PurchaseOutcome = { kind: 'failed', text: { text: 'An error has occurred' } };

/** The card fields' report of the visitor's edits, as the page handed it to the provider. */
function cardEdited(): void {
  const options = vi.mocked(mountCardFields).mock.calls.at(-1)?.[1];
  act(() => options?.onCardEdited?.());
}

/** A signed-up visitor presses Pay with the card, and the purchase fails. */
async function failedCardPayment(methods: readonly [PaymentMethodId, ...PaymentMethodId[]]) {
  signedUpWith('test');
  const answers = purchaseAnswers(FAILED);
  render(<PaymentMethodChoice layout="vertical" methods={methods} />);
  const user = userEvent.setup();
  await waitFor(() => expect(payButton().disabled).toBe(false));
  await user.click(payButton());
  await waitFor(() => expect(paymentErrorNote()?.textContent).toBe('An error has occurred'));
  return { user, ...answers };
}

describe('the payment error beside Pay (SPEC.md §3 paymentError, §4 Payment step 7)', () => {
  it('stays beside Pay, announced and describing it, said once: no toast repeats it', async () => {
    vi.useFakeTimers();
    signedUpWith('test');
    purchaseAnswers(FAILED);
    render(
      <>
        <PaymentMethodChoice layout="vertical" methods={['card']} />
        <ErrorToast closeLabel="Close" />
      </>,
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(async () => {
      fireEvent.click(payButton());
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(document.querySelector('.toast__message')).toBeNull();
    const note = paymentErrorNote()!;
    expect(note.textContent).toBe('An error has occurred');
    expect(note.getAttribute('role')).toBe('alert');
    expect(payButton().getAttribute('aria-describedby')?.split(' ')).toContain(note.id);

    await act(() => vi.advanceTimersByTimeAsync(TOAST_DISMISS_MS));
    expect(document.querySelector('.toast__message')).toBeNull();
    expect(paymentErrorNote()?.textContent).toBe('An error has occurred');
    expect(payButton().getAttribute('aria-describedby')?.split(' ')).toContain(note.id);
    expect(payButton().disabled).toBe(false);
  });

  it('has its live region in the page before any error, empty, describing nothing', async () => {
    signedUpWith('test');
    render(<PaymentMethodChoice layout="vertical" methods={['card']} />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    expect(paymentErrorNote()?.getAttribute('role')).toBe('alert');
    expect(paymentErrorNote()?.textContent).toBe('');
    expect(payButton().getAttribute('aria-describedby')).not.toContain('payment-error');
  });

  it("goes when the visitor edits the card in the provider's fields", async () => {
    await failedCardPayment(['card']);
    cardEdited();
    expect(paymentErrorNote()?.textContent).toBe('');
    expect(payButton().getAttribute('aria-describedby')).not.toContain('payment-error');
    expect($checkout.get().paymentError).toEqual({ show: false, message: '' });
  });

  it('goes when the visitor changes the name on card', async () => {
    const { user } = await failedCardPayment(['card']);
    await user.type(screen.getByLabelText('Name on card (optional)'), 'A');
    expect(paymentErrorNote()?.textContent).toBe('');
  });

  it('goes when Pay is pressed again, while that attempt runs', async () => {
    const { user, purchase } = await failedCardPayment(['card']);
    let answer: (outcome: PurchaseOutcome) => void = () => {};
    purchase.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    await user.click(payButton());
    expect(paymentErrorNote()?.textContent).toBe('');
    expect(screen.getByRole('button', { name: 'Processing your payment…' })).toBeTruthy();
    await act(async () => answer(FAILED));
    expect(paymentErrorNote()?.textContent).toBe('An error has occurred');
  });

  it('a page load shows no error kept from before, and hydrates without a mismatch', async () => {
    signedUpWith('test');
    // The worker renders with no error; the browser's storage still holds an earlier one.
    const { problems, container, root } = await serverThenHydrate(
      <PaymentMethodChoice layout="vertical" methods={['card']} />,
      {
        beforeHydrate: () =>
          $checkout.setKey('paymentError', { show: true, message: 'An error has occurred' }),
      },
    );
    expect(problems).toEqual([]);
    expect(container.querySelector('.payment-methods__error')?.textContent).toBe('');
    expect($checkout.get().paymentError.show).toBe(false);
    act(() => root.unmount());
  });
});

describe('a card the provider finds wrong is refused before Pay sends anything', () => {
  it('reveals every field, says it once for screen readers, and pays once the card is right', async () => {
    signedUpWith('test');
    const revealProblems = vi.fn();
    vi.mocked(mountedCardFields).mockReturnValue({
      provider: { ...provider, revealProblems },
      choice: { id: 'test', route: 'polling' },
    });
    const { purchase } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="vertical" methods={['card']} />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    act(() => $cardProblems.set({ number: null, expiry: 'past', cvv: 'incomplete' }));
    const user = userEvent.setup();
    await user.click(payButton());
    expect(purchase).not.toHaveBeenCalled();
    expect(revealProblems).toHaveBeenCalledOnce();
    // The card's own status line (the other provider's offer keeps an empty one of its own).
    const summary = screen.getByText(
      'Check your card details: The expiry date is in the past. The security code is incomplete.',
    );
    expect(summary.getAttribute('role')).toBe('status');
    // Not beside Pay, not in a toast: the fields say it, the summary once.
    expect(paymentErrorNote()?.textContent).toBe('');
    expect($error.get().show).toBe(false);

    act(() => $cardProblems.set({ number: null, expiry: null, cvv: null }));
    expect(summary.textContent).toBe('');
    await user.click(payButton());
    await waitFor(() => expect(purchase).toHaveBeenCalledOnce());
  });
});

describe('the renewal consent where the country asks for it (shared/plans/renewal-consent.ts)', () => {
  it('a US visitor: Pay without the tick says so at the box and focuses it; ticked, it pays with the consent', async () => {
    signedUpWith('test');
    const { purchase } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="vertical" methods={['card']} country="US" />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    const box = screen.getByRole('checkbox', {
      name: 'I agree that my subscription renews automatically at $39.99 every month until I cancel.',
    }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    const user = userEvent.setup();
    await user.click(payButton());
    expect(purchase).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(box);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText('Tick the box to agree to the automatic renewal, then pay.'),
    ).toBeTruthy();

    await user.click(box);
    expect(box.hasAttribute('aria-invalid')).toBe(false);
    await user.click(payButton());
    await waitFor(() => expect(purchase).toHaveBeenCalledOnce());
    expect(purchase.mock.calls[0]?.[0].renewalConsent).toEqual({
      text_version: RENEWAL_CONSENT_VERSION,
      language: 'en',
      terms: {
        plan_id: 'monthly_7d_intro_usd',
        currency: 'USD',
        amount: 699,
        renewal_amount: 3999,
      },
    });
  });

  it('a change of what Pay charges clears the tick and says the new amount; ticked again, it pays those terms', async () => {
    signedUpWith('test');
    const { purchase } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="vertical" methods={['card']} country="US" />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox'));
    // Another plan is picked above (as the countdown's end picks the regular price).
    act(() => $plans.setKey('plan', 'quarterly_usd'));
    const box = screen.getByRole('checkbox') as HTMLInputElement;
    expect(box.checked).toBe(false);
    const changed =
      'The amount changed: $59.99 today. Read the new terms under Pay, then tick the box again.';
    expect(screen.getByText(changed).getAttribute('role')).toBe('alert');
    const payQuarterly = screen.getByRole('button', { name: 'Pay $59.99' });
    await user.click(payQuarterly);
    expect(purchase).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(box);

    await user.click(box);
    expect(screen.queryByText(changed)).toBeNull();
    await user.click(payQuarterly);
    await waitFor(() => expect(purchase).toHaveBeenCalledOnce());
    expect(purchase.mock.calls[0]?.[0].renewalConsent?.terms).toEqual({
      plan_id: 'quarterly_usd',
      currency: 'USD',
      amount: 5999,
      renewal_amount: 5999,
    });
  });

  it("the offer's countdown reaching zero under a ticked box: cleared, the new amount said, paid at the regular price once ticked again (SPEC.md §4, §9)", async () => {
    signedUpWith('test');
    const { purchase } = purchaseAnswers(succeeded);
    onTestFinished(() => $offerEnded.set(false));
    // The checkout's two islands with the props the worker gave a US visitor's page.
    const { document: page } = await renderScreen('checkout_v3_tr', { country: 'US' });
    render(
      <>
        <PlanChoice {...islandProps<PlanChoiceProps>(page, 'PlanChoice')} />
        <CheckoutPayment {...islandProps<CheckoutPaymentProps>(page, 'CheckoutPayment')} />
      </>,
    );
    const pay = () => document.getElementById('continue-button') as HTMLButtonElement;
    await waitFor(() => expect(pay().disabled).toBe(false));
    const user = userEvent.setup();
    const box = screen.getByRole('checkbox', {
      name: /^I agree that my subscription renews automatically/,
    }) as HTMLInputElement;
    await user.click(box);
    expect(textOf(pay())).toBe('Start trial for $6.99');

    // The countdown's end (test/unit/plans/offer-countdown.test.tsx) ends the offer.
    act(() => $offerEnded.set(true));
    expect(textOf(pay())).toBe('Pay $39.99');
    expect(box.checked).toBe(false);
    const changed =
      'The amount changed: $39.99 today. Read the new terms under Pay, then tick the box again.';
    expect(screen.getByText(changed).getAttribute('role')).toBe('alert');
    expect(textOf(document.querySelector('.pay-card__total'))).toBe('Total today$39.99');
    expect(textOf(document.querySelector('.pay-card__terms'))).toMatch(
      /^\$39\.99 today, then \$39\.99 every month/,
    );
    // Pay does nothing until the box is ticked beside the new terms.
    await user.click(pay());
    expect(purchase).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(box);
    await user.keyboard(' ');
    expect(box.checked).toBe(true);
    expect(screen.queryByText(changed)).toBeNull();
    await user.click(pay());
    await waitFor(() => expect(purchase).toHaveBeenCalledOnce());
    expect(purchase.mock.calls[0]?.[0]).toMatchObject({
      planId: 'monthly_usd',
      renewalConsent: {
        terms: { plan_id: 'monthly_usd', currency: 'USD', amount: 3999, renewal_amount: 3999 },
      },
    });
  });

  it('elsewhere: no box, and the terms stand right under Pay', async () => {
    signedUpWith('test');
    const { purchase } = purchaseAnswers(succeeded);
    render(<PaymentMethodChoice layout="vertical" methods={['card']} />);
    await waitFor(() => expect(payButton().disabled).toBe(false));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(payButton().nextElementSibling?.textContent).toMatch(
      /^\$6\.99 today for a 7-day trial, then \$39\.99 every month, renewing automatically from .+ until you cancel\. Cancel anytime/,
    );
    await userEvent.setup().click(payButton());
    await waitFor(() => expect(purchase).toHaveBeenCalledOnce());
    expect(purchase.mock.calls[0]?.[0].renewalConsent).toBeNull();
  });
});

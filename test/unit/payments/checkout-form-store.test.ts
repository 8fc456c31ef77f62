// @vitest-environment happy-dom
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPayPalButton, loadWalletButton } from '../../../islands/payments/providers';
import { $cardForm, mountedCardFields } from '../../../islands/stores/card-form';
import { $checkout } from '../../../islands/stores/checkout';
import {
  checkoutFormStore,
  editCardholderName,
  GATE_WAIT_MS,
  openCheckout,
  pressGate,
} from '../../../islands/stores/checkout-form';
import { chargedToday } from '../../../islands/stores/checkout-purchase';
import { type OneClickSetup, startOneClick } from '../../../islands/stores/one-click';
import { $anotherCardAsked, $paymentPhase } from '../../../islands/stores/payment';
import { showPaymentError } from '../../../islands/stores/payment-error';
import { $plans } from '../../../islands/stores/plans';
import { $signup } from '../../../islands/stores/signup';
import { fakeProvider } from './fakes';

/**
 * The checkout form's store on its own: what the visitor's edits do to it, and how a one-click
 * method's button is loaded, left out and undone. The SDK loaders are stood in.
 */
vi.mock('../../../islands/stores/card-form', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/stores/card-form')>()),
  mountedCardFields: vi.fn(),
}));
vi.mock('../../../islands/payments/providers', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/payments/providers')>()),
  loadWalletButton: vi.fn(),
  loadPayPalButton: vi.fn(),
}));

const COPY = { walletTotal: 'Total today' };
const PLAN = { id: 'monthly', currency: 'EUR', periodPrice: '29.99' };

function setup(overrides: Partial<OneClickSetup> = {}): OneClickSetup {
  return {
    cardForm: 'ready',
    planDetails: PLAN,
    container: document.createElement('div'),
    copy: COPY,
    stripeAccountCountry: 'US',
    errorTexts: {},
    page: () => ({
      next: '/next',
      declined: '/declined',
      here: '/here',
      texts: {},
      production: false,
    }),
    ...overrides,
  };
}

function braintreeMounted() {
  $signup.set({ ...$signup.get(), btToken: 'bt-token', stripe: null });
  vi.mocked(mountedCardFields).mockReturnValue({
    provider: fakeProvider(),
    choice: { id: 'braintree', route: 'direct' },
  });
}

beforeEach(() => {
  localStorage.clear();
  $checkout.setKey('paymentError', { show: false, message: '' });
  vi.mocked(mountedCardFields).mockReset();
  vi.mocked(loadPayPalButton).mockReset();
  vi.mocked(loadWalletButton).mockReset();
});
afterEach(() => vi.clearAllMocks());

describe('the checkout form store', () => {
  it('opens with no one-click method offered, closed behind a gate', () => {
    expect(checkoutFormStore(true).value).toEqual({
      open: false,
      oneClick: [],
      oneClickSettled: false,
      cardholderName: '',
      waiting: false,
    });
    expect(checkoutFormStore(false).value?.open).toBe(true);
  });

  it('opens the gated form and records showCheckout', () => {
    const $form = checkoutFormStore(true);
    openCheckout($form);
    expect($form.get().open).toBe(true);
    expect($plans.get().showCheckout).toBe(true);
  });

  it('keeps the name on card in the checkout state, and the error gives way', () => {
    const $form = checkoutFormStore(false);
    showPaymentError('Declined');
    editCardholderName($form, 'Ada Lovelace');
    expect($form.get().cardholderName).toBe('Ada Lovelace');
    expect($checkout.get()).toMatchObject({
      cardholderName: 'Ada Lovelace',
      paymentError: { show: false },
    });
  });
});

describe("the form's own work, while its island listens (SPEC.md §3 showCheckout)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    $plans.setKey('showCheckout', false);
    $cardForm.set('ready');
    $paymentPhase.set('idle');
    $anotherCardAsked.set('');
  });
  afterEach(() => vi.useRealTimers());
  /** A gated form as the island holds it: created, then listened to once committed. */
  const listenedGatedForm = () => {
    const $form = checkoutFormStore(true);
    return [$form, $form.listen(() => {})] as const;
  };

  it('does nothing before the island listens, and then restores the name and drops the old error', () => {
    $checkout.setKey('cardholderName', 'Ada Lovelace');
    showPaymentError('Declined');
    $plans.setKey('showCheckout', true);
    const $form = checkoutFormStore(true);
    expect($form.value).toMatchObject({ open: false, cardholderName: '' });
    expect($checkout.get().paymentError.show).toBe(true);
    $form.listen(() => {});
    expect($form.value).toMatchObject({ open: true, cardholderName: 'Ada Lovelace' });
    expect($checkout.get().paymentError.show).toBe(false);
  });

  it('opens the gate at once where no one-click method leads', () => {
    const [$form] = listenedGatedForm();
    pressGate($form, false);
    expect($form.value).toMatchObject({ open: true, waiting: false });
    expect($plans.get().showCheckout).toBe(true);
  });

  it('holds a pressed gate until the provider answers which one-click methods there are', () => {
    const [$form] = listenedGatedForm();
    pressGate($form, true);
    expect($form.value).toMatchObject({ open: false, waiting: true });
    $form.setKey('oneClickSettled', true);
    expect($form.value).toMatchObject({ open: true, waiting: false });
  });

  it('opens a pressed gate once the card form says there will be no provider', () => {
    const [$form] = listenedGatedForm();
    pressGate($form, true);
    $cardForm.set('unavailable');
    expect($form.value?.open).toBe(true);
  });

  it('opens a pressed gate after GATE_WAIT_MS when the provider does not answer', () => {
    const [$form] = listenedGatedForm();
    pressGate($form, true);
    vi.advanceTimersByTime(GATE_WAIT_MS - 1);
    expect($form.value?.open).toBe(false);
    vi.advanceTimersByTime(1);
    expect($form.value).toMatchObject({ open: true, waiting: false });
  });

  it('opens for a payment that resumes, and for a visitor back for another card', () => {
    const [resumed] = listenedGatedForm();
    $paymentPhase.set('paying');
    expect(resumed.value?.open).toBe(true);
    $paymentPhase.set('idle');
    $anotherCardAsked.set('yes');
    const [anotherCard] = listenedGatedForm();
    expect(anotherCard.value?.open).toBe(true);
  });

  it('stops waiting once the island has gone', () => {
    const [$form, unlisten] = listenedGatedForm();
    pressGate($form, true);
    unlisten();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY + GATE_WAIT_MS);
    $paymentPhase.set('paying');
    expect($form.value?.open).toBe(false);
  });
});

describe('a one-click method (SPEC.md §2 one-click payment)', () => {
  it('offers nothing while the card fields load, nor without an account', () => {
    const $form = checkoutFormStore(false);
    startOneClick($form, ['paypal'], setup({ cardForm: 'loading' }));
    startOneClick($form, ['paypal'], setup({ cardForm: 'no-account' }));
    expect($form.get().oneClick).toEqual([]);
    // Not answered yet: a gate waiting on it keeps waiting (islands/CheckoutPayment.tsx).
    expect($form.get().oneClickSettled).toBe(false);
    expect(loadPayPalButton).not.toHaveBeenCalled();
  });

  it('offers nothing the provider does not carry: PayPal with the test gateway', async () => {
    $signup.set({ ...$signup.get(), btToken: 'bt-token', stripe: null });
    vi.mocked(mountedCardFields).mockReturnValue({
      provider: fakeProvider(),
      choice: { id: 'test', route: 'polling' },
    });
    const $form = checkoutFormStore(false);
    startOneClick($form, ['paypal', 'wallet'], setup());
    await vi.waitFor(() => expect($form.get().oneClickSettled).toBe(true));
    expect($form.get().oneClick).toEqual([]);
    expect(loadPayPalButton).not.toHaveBeenCalled();
    expect(loadWalletButton).not.toHaveBeenCalled();
  });

  it('loads PayPal for the plan charged today, and destroys its button when stopped', async () => {
    braintreeMounted();
    const destroy = vi.fn();
    vi.mocked(loadPayPalButton).mockResolvedValue({ destroy });
    const $form = checkoutFormStore(false);
    const stop = startOneClick($form, ['paypal'], setup());
    expect($form.get().oneClickSettled).toBe(false);
    expect(loadPayPalButton).toHaveBeenCalledWith(
      expect.objectContaining({ clientToken: 'bt-token', amount: '29.99', currency: 'EUR' }),
    );
    await vi.waitFor(() =>
      expect($form.get().oneClick).toEqual([{ method: 'paypal', kind: 'paypal' }]),
    );
    expect($form.get().oneClickSettled).toBe(true);
    stop();
    expect(destroy).toHaveBeenCalledOnce();
    expect($form.get().oneClick).toEqual([]);
    expect($form.get().oneClickSettled).toBe(false);
  });

  it('destroys a button that arrives after the form was left', async () => {
    braintreeMounted();
    const destroy = vi.fn();
    vi.mocked(loadPayPalButton).mockResolvedValue({ destroy });
    const $form = checkoutFormStore(false);
    startOneClick($form, ['paypal'], setup())();
    await vi.waitFor(() => expect(destroy).toHaveBeenCalledOnce());
    expect($form.get().oneClick).toEqual([]);
  });

  it('leaves PayPal out when its SDK fails, never offering it', async () => {
    braintreeMounted();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(loadPayPalButton).mockRejectedValue(new Error('blocked'));
    const $form = checkoutFormStore(false);
    const changes: unknown[] = [];
    $form.listen((state) => changes.push(state.oneClick));
    startOneClick($form, ['paypal'], setup());
    await vi.waitFor(() => expect(changes).toEqual([[]]));
    expect($form.get().oneClick).toEqual([]);
  });

  it('charges nothing without a price in minor units and a currency', () => {
    expect(chargedToday(PLAN)).toEqual({ price: '29.99', amount: 2999, currency: 'EUR' });
    expect(chargedToday({ periodPrice: '29.9', currency: 'EUR' })).toBeNull();
    expect(chargedToday({ periodPrice: '29.99' })).toBeNull();
    expect(chargedToday(null)).toBeNull();
  });
});

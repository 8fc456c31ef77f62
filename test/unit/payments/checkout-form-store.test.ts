// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPayPalButton, loadWalletButton } from '../../../islands/payments/providers';
import { mountedCardFields } from '../../../islands/stores/card-form';
import { $checkout } from '../../../islands/stores/checkout';
import {
  checkoutFormStore,
  editCardholderName,
  openCheckout,
} from '../../../islands/stores/checkout-form';
import { chargedToday } from '../../../islands/stores/checkout-purchase';
import { type OneClickSetup, startOneClick } from '../../../islands/stores/one-click';
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
    expect(checkoutFormStore(true).get()).toEqual({
      open: false,
      oneClick: [],
      oneClickSettled: false,
      cardholderName: '',
    });
    expect(checkoutFormStore(false).get().open).toBe(true);
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

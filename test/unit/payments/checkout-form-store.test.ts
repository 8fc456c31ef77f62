// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadPayPalButton, loadWalletButton } from '../../../islands/payments/providers';
import { mountedCardFields } from '../../../islands/stores/card-form';
import { $checkout } from '../../../islands/stores/checkout';
import {
  checkoutFormStore,
  chooseMethod,
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
 * The checkout form's store on its own: what the visitor's choices do to it, and how a
 * one-click method's button is loaded, refused and undone. The SDK loaders are stood in.
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

const COPY = {
  methodUnavailable: 'Not offered here',
  walletUnavailable: 'No wallet on this device',
  paypalUnavailable: 'PayPal did not load',
  walletTotal: 'Total today',
};
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
  it('opens on the page default, closed behind a gate', () => {
    expect(checkoutFormStore('paypal', true).get()).toMatchObject({
      open: false,
      activeId: 'paypal',
      visitorChose: false,
      oneClick: { status: 'loading' },
    });
    expect(checkoutFormStore('card', false).get().open).toBe(true);
  });

  it('opens the gated form and records showCheckout', () => {
    const $form = checkoutFormStore('card', true);
    openCheckout($form);
    expect($form.get().open).toBe(true);
    expect($plans.get().showCheckout).toBe(true);
  });

  it('keeps a method the visitor chose, clearing the error only when it changes', () => {
    const $form = checkoutFormStore('card', false);
    showPaymentError('Declined');
    chooseMethod($form, 'card');
    expect($checkout.get().paymentError.show).toBe(true);
    chooseMethod($form, 'paypal');
    expect($form.get()).toMatchObject({ activeId: 'paypal', visitorChose: true });
    expect($checkout.get().paymentError.show).toBe(false);
  });

  it('keeps the name on card in the checkout state, and the error gives way', () => {
    const $form = checkoutFormStore('card', false);
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
  it('waits while the card fields load', () => {
    const $form = checkoutFormStore('paypal', false);
    startOneClick($form, 'paypal', setup({ cardForm: 'loading' }));
    expect($form.get().oneClick).toEqual({ status: 'loading' });
    expect(loadPayPalButton).not.toHaveBeenCalled();
  });

  it('gives way to the card when the page opened on a method not offered', () => {
    const $form = checkoutFormStore('paypal', false);
    startOneClick($form, 'paypal', setup({ cardForm: 'no-account' }));
    expect($form.get().activeId).toBe('card');
  });

  it('says why when the visitor chose a method not offered', () => {
    const $form = checkoutFormStore('card', false);
    chooseMethod($form, 'paypal');
    startOneClick($form, 'paypal', setup({ cardForm: 'no-account' }));
    expect($form.get()).toMatchObject({
      activeId: 'paypal',
      oneClick: { status: 'unavailable', text: COPY.methodUnavailable },
    });
  });

  it('loads PayPal for the plan charged today, and destroys its button when stopped', async () => {
    braintreeMounted();
    const destroy = vi.fn();
    vi.mocked(loadPayPalButton).mockResolvedValue({ destroy });
    const $form = checkoutFormStore('paypal', false);
    const stop = startOneClick($form, 'paypal', setup());
    expect(loadPayPalButton).toHaveBeenCalledWith(
      expect.objectContaining({ clientToken: 'bt-token', amount: '29.99', currency: 'EUR' }),
    );
    await vi.waitFor(() => expect($form.get().oneClick).toEqual({ status: 'paypal' }));
    stop();
    expect(destroy).toHaveBeenCalledOnce();
  });

  it('destroys a button that arrives after the method was left', async () => {
    braintreeMounted();
    const destroy = vi.fn();
    vi.mocked(loadPayPalButton).mockResolvedValue({ destroy });
    const $form = checkoutFormStore('paypal', false);
    startOneClick($form, 'paypal', setup())();
    await vi.waitFor(() => expect(destroy).toHaveBeenCalledOnce());
    expect($form.get().oneClick).toEqual({ status: 'loading' });
  });

  it('says PayPal did not load when its SDK fails', async () => {
    braintreeMounted();
    vi.mocked(loadPayPalButton).mockRejectedValue(new Error('blocked'));
    const $form = checkoutFormStore('card', false);
    chooseMethod($form, 'paypal');
    startOneClick($form, 'paypal', setup());
    await vi.waitFor(() =>
      expect($form.get().oneClick).toEqual({ status: 'unavailable', text: COPY.paypalUnavailable }),
    );
  });

  it('charges nothing without a price in minor units and a currency', () => {
    expect(chargedToday(PLAN)).toEqual({ price: '29.99', amount: 2999, currency: 'EUR' });
    expect(chargedToday({ periodPrice: '29.9', currency: 'EUR' })).toBeNull();
    expect(chargedToday({ periodPrice: '29.99' })).toBeNull();
    expect(chargedToday(null)).toBeNull();
  });
});

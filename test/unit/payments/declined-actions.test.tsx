// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from '../../../islands/boot';
import { switchToOtherProvider } from '../../../islands/payments/provider-calls';
import { mountCardFields, mountedCardFields } from '../../../islands/stores/card-form';
import { startCardFields } from '../../../islands/stores/checkout-form';
import { $anotherCardAsked, $declinedReturn } from '../../../islands/stores/payment';
import TryAgain, { type DeclinedAction } from '../../../islands/TryAgain';
import { fakeProvider } from './fakes';

/**
 * What the actions of 'Payment declined' do (islands/TryAgain.tsx, SPEC.md §8): each goes back
 * to the checkout the visitor paid on, its query kept, and Use another card (or the other
 * provider's form) has that checkout's card fields focus the number once they are in. The
 * worker draws which actions a decline offers, and in what words
 * (test/worker/render/declined-by-card.test.ts); Chromium walks the other provider's form
 * to its focused number field and a payment (checkout.test.ts).
 */

vi.mock('../../../islands/boot', () => ({ navigate: vi.fn() }));
vi.mock('../../../islands/payments/provider-calls', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/payments/provider-calls')>()),
  switchToOtherProvider: vi.fn(),
}));
vi.mock('../../../islands/stores/card-form', async (importActual) => ({
  ...(await importActual<typeof import('../../../islands/stores/card-form')>()),
  mountCardFields: vi.fn(),
  mountedCardFields: vi.fn(),
}));

/** The checkout the decline came from, as the payment store kept it (its path and query). */
const CHECKOUT = '/checkout_v3_tr?skip_split=true';

beforeEach(() => {
  $declinedReturn.set(CHECKOUT);
  $anotherCardAsked.set('');
});
afterEach(() => {
  cleanup();
  vi.mocked(navigate).mockReset();
  vi.mocked(switchToOtherProvider).mockReset();
});

/** Presses the action `intent` of 'Payment declined', labelled `label`. */
async function press(intent: DeclinedAction, label: string) {
  render(<TryAgain action="/payment_declined" next="/checkout" label={label} intent={intent} />);
  await userEvent.setup().click(screen.getByRole('button', { name: label }));
}

describe("'Payment declined' leads back to the checkout paid on", () => {
  it('Try again: the same checkout, its query kept, the card form as it was', async () => {
    await press('try_again', 'Try again');
    expect(navigate).toHaveBeenCalledExactlyOnceWith(CHECKOUT);
    expect($anotherCardAsked.get()).toBe('');
  });

  it('Use another card: the same checkout, asked to focus the card number', async () => {
    await press('another_card', 'Use another card');
    expect(navigate).toHaveBeenCalledExactlyOnceWith(CHECKOUT);
    expect($anotherCardAsked.get()).toBe('yes');
  });

  it("the other provider's form: moved by the worker, the same checkout focuses its number; refused, as it was", async () => {
    vi.mocked(switchToOtherProvider).mockResolvedValue(true);
    await press('other_provider', 'Pay with another payment form');
    expect(navigate).toHaveBeenCalledExactlyOnceWith(CHECKOUT);
    expect($anotherCardAsked.get()).toBe('yes');

    cleanup();
    $anotherCardAsked.set('');
    vi.mocked(switchToOtherProvider).mockResolvedValue(false);
    await press('other_provider', 'Pay with another payment form');
    expect($anotherCardAsked.get()).toBe('');
  });
});

describe('the checkout a visitor came back to for another card', () => {
  /** Mounts the checkout's card fields as CheckoutPayment does; answers the provider's focus. */
  async function cardFieldsMounted() {
    const focusNumber = vi.fn();
    vi.mocked(mountedCardFields).mockReturnValue({
      provider: fakeProvider({ focusNumber }),
      choice: { id: 'test', route: 'polling' },
    });
    vi.mocked(mountCardFields).mockResolvedValue(() => {});
    const stop = startCardFields(document.createElement('div'), {
      forceDirect: false,
      language: 'en',
      labels: { number: 'Card number', expiry: 'Expiry date', cvv: 'CVV', name: 'Name on card' },
      messages: {},
      copy: {} as never,
      page: () => ({
        next: '/upsell',
        declined: '/payment_declined',
        here: CHECKOUT,
        texts: {},
        production: false,
      }),
    });
    await vi.waitFor(() => expect(mountedCardFields).toHaveBeenCalled());
    stop();
    return focusNumber;
  }

  it('focuses the card number once the fields are in, and only that once', async () => {
    $anotherCardAsked.set('yes');
    expect(await cardFieldsMounted()).toHaveBeenCalledOnce();
    expect($anotherCardAsked.get()).toBe('');
    // The next load of the checkout (a reload) is an ordinary one.
    expect(await cardFieldsMounted()).not.toHaveBeenCalled();
  });
});

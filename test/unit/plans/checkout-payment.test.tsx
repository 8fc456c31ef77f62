// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import CheckoutPayment from '../../../islands/CheckoutPayment';
import type { PaymentMethodId } from '../../../islands/kit/PaymentMethodPicker';
import { checkoutPaymentProps } from '../../../screens/plans/payment-method-props';
import { englishT, renderScreenProps } from './render-screen';

afterEach(cleanup);

const t = englishT();
const checkedMethod = () =>
  screen
    .getAllByRole('radio')
    .filter((radio) => radio.getAttribute('aria-checked') === 'true')
    .map((radio) => radio.dataset.method);
const cardForm = () => document.querySelector('.card-form') as HTMLElement;

function PaymentMethodChoice({
  layout,
  methods,
}: {
  layout: 'vertical' | 'horizontal';
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]];
}) {
  return <CheckoutPayment {...checkoutPaymentProps(renderScreenProps(t), { layout, methods })} />;
}
const paymentMethodProps = (
  _t: unknown,
  layout: 'vertical' | 'horizontal',
  methods: readonly [PaymentMethodId, ...PaymentMethodId[]],
) => ({ layout, methods });

describe('payment form without an account on this browser (SPEC.md §4 Payment settings)', () => {
  it('says to create the account first and keeps Pay disabled', async () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    expect(await screen.findByText('Create your account first, then pay here.')).toBeTruthy();
    const pay = screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(true);
  });

  it('asks nothing of the name on card: it is optional, with its label and autocomplete', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    const name = screen.getByLabelText('Name on card (optional)') as HTMLInputElement;
    expect(name.required).toBe(false);
    expect(name.getAttribute('autocomplete')).toBe('cc-name');
  });
});

describe('payment-method choice', () => {
  it('selects the first method and shows the card form when it is the card', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card', 'wallet'])} />);
    expect(checkedMethod()).toEqual(['card']);
    expect(cardForm().hidden).toBe(false);
    expect(document.querySelector('.payment-methods__note')).toBeNull();
  });

  it('hides the card form behind a wallet the provider does not offer, explaining it, keeping what was typed', async () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card', 'wallet'])} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name on card (optional)'), 'Ada Lovelace');
    await user.click(screen.getByRole('radio', { name: /One-click payment/ }));
    expect(checkedMethod()).toEqual(['wallet']);
    expect(cardForm().hidden).toBe(true);
    expect(document.querySelector('.payment-methods__note')?.textContent).toBe(
      'This payment method is not available in this browser. Please pay by card.',
    );
    expect((screen.getByRole('button', { name: 'Pay now' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.click(screen.getByRole('radio', { name: /Credit or debit card/ }));
    expect(cardForm().hidden).toBe(false);
    expect((screen.getByLabelText('Name on card (optional)') as HTMLInputElement).value).toBe(
      'Ada Lovelace',
    );
  });

  it('moves between methods with the arrow keys', async () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'horizontal', ['paypal', 'card'])} />);
    const user = userEvent.setup();
    // No provider offers PayPal here yet, so the card is selected once mounted.
    expect(checkedMethod()).toEqual(['card']);
    await user.tab();
    expect(document.activeElement?.getAttribute('data-method')).toBe('card');
    await user.keyboard('{ArrowLeft}');
    expect(checkedMethod()).toEqual(['paypal']);
    expect(document.activeElement?.getAttribute('data-method')).toBe('paypal');
  });

  it('names each wallet by its image', () => {
    render(
      <PaymentMethodChoice
        {...paymentMethodProps(t, 'vertical', ['apple_pay', 'wallet', 'paypal'])}
      />,
    );
    expect(screen.getByRole('radio', { name: 'Apple Pay Apple Pay' })).toBeTruthy();
    expect(
      screen.getByRole('radio', { name: 'One-click payment Apple Pay Google Pay' }),
    ).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'PayPal PayPal' })).toBeTruthy();
  });

  it('lays methods out as rows (v3) or as tabs (h3)', () => {
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

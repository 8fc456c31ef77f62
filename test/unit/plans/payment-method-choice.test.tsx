// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import PaymentMethodChoice from '../../../islands/PaymentMethodChoice';
import { paymentMethodProps } from '../../../screens/plans/payment-method-props';
import { englishT } from './render-screen';

afterEach(cleanup);

const t = englishT();
const checkedMethod = () =>
  screen
    .getAllByRole('radio')
    .filter((radio) => radio.getAttribute('aria-checked') === 'true')
    .map((radio) => radio.dataset.method);
const cardForm = () => document.querySelector('.card-form')?.parentElement as HTMLElement;

describe('card form (SPEC.md §2: card number, MM/YY, CVV, optional name on card)', () => {
  it('has the four fields, each with its label and autocomplete', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card', 'wallet'])} />);
    const fields = [
      ['Card number', 'cc-number', '1234 1234 1234 1234'],
      ['Expiry date', 'cc-exp', 'MM/YY'],
      ['CVV', 'cc-csc', '123'],
      ['Name on card (optional)', 'cc-name', 'As printed on the card'],
    ];
    for (const [label, autocomplete, placeholder] of fields) {
      const input = screen.getByLabelText(label!) as HTMLInputElement;
      expect(input.getAttribute('autocomplete'), label).toBe(autocomplete);
      expect(input.placeholder, label).toBe(placeholder);
    }
  });

  it('asks nothing of the name on card: it is optional', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    const name = screen.getByLabelText('Name on card (optional)') as HTMLInputElement;
    expect(name.required).toBe(false);
  });

  it('sends the card nowhere: no field has a name, none sits in a form', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    for (const input of document.querySelectorAll('input')) {
      expect(input.name).toBe('');
      expect(input.form).toBeNull();
    }
  });

  it('offers a numeric keypad for number, expiry and CVV', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card'])} />);
    for (const label of ['Card number', 'Expiry date', 'CVV']) {
      expect(screen.getByLabelText(label).getAttribute('inputmode'), label).toBe('numeric');
    }
  });
});

describe('payment-method choice', () => {
  it('selects the first method and shows the card form when it is the card', () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card', 'wallet'])} />);
    expect(checkedMethod()).toEqual(['card']);
    expect(cardForm().hidden).toBe(false);
    expect(document.querySelector('.payment-methods__note')).toBeNull();
  });

  it('hides the card form behind a wallet, keeping what was typed', async () => {
    render(<PaymentMethodChoice {...paymentMethodProps(t, 'vertical', ['card', 'wallet'])} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name on card (optional)'), 'Ada Lovelace');
    await user.click(screen.getByRole('radio', { name: /One-click payment/ }));
    expect(checkedMethod()).toEqual(['wallet']);
    expect(cardForm().hidden).toBe(true);
    expect(document.querySelector('.payment-methods__note')?.textContent).toBe(
      'Pay in one tap with Apple Pay or Google Pay.',
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
    await user.tab();
    expect(document.activeElement?.getAttribute('data-method')).toBe('paypal');
    await user.keyboard('{ArrowRight}');
    expect(checkedMethod()).toEqual(['card']);
    expect(document.activeElement?.getAttribute('data-method')).toBe('card');
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
      'payment-methods payment-methods--vertical',
    );
    rerender(<PaymentMethodChoice {...paymentMethodProps(t, 'horizontal', ['card'])} />);
    expect(container.firstElementChild?.className).toBe(
      'payment-methods payment-methods--horizontal',
    );
  });
});

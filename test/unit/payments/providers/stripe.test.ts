// @vitest-environment happy-dom
import type { StripeError } from '@stripe/stripe-js';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createStripeProvider, stripeLocale } from '../../../../islands/payments/providers/stripe';
import { paymentErrorText } from '../../../../shared/api/error-text';
import { fakeStripe, paymentIntent, paymentMethod } from './fake-stripe';
import { providerRejection } from './provider-error';

const labels = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name' };
const settings = { publishableKey: 'pk_test_123', accountName: 'Geofunnel' };

function cardError(fields: Partial<StripeError>): StripeError {
  return { type: 'card_error', ...fields };
}

let container: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '';
  container = document.createElement('form');
  document.body.appendChild(container);
});

describe('mount', () => {
  it('loads Stripe.js only when the fields are mounted, not when the provider is made', async () => {
    const fake = fakeStripe();
    const provider = createStripeProvider(settings, fake);
    expect(fake.loadStripe).not.toHaveBeenCalled();
    await provider.mount(container, { language: 'de', labels });
    expect(fake.loadStripe).toHaveBeenCalledExactlyOnceWith('pk_test_123');
    expect(fake.elementsOptions).toEqual([{ locale: 'de' }]);
  });

  it('puts number, MM/YY and CVV elements into labelled slots of the container', async () => {
    const fake = fakeStripe();
    await createStripeProvider(settings, fake).mount(container, { language: 'en', labels });
    expect(fake.elements.map((element) => element.type)).toEqual([
      'cardNumber',
      'cardExpiry',
      'cardCvc',
    ]);
    expect(fake.elements.map((element) => element.options.placeholder)).toEqual([
      '1234 1234 1234 1234',
      'MM/YY',
      'CVV',
    ]);
    const labelled = [...container.querySelectorAll('label')].map((label) => ({
      text: label.textContent,
      slot: document.getElementById(label.htmlFor),
    }));
    expect(labelled.map((label) => label.text)).toEqual([
      'Card number',
      'Expiry date',
      'Security code',
    ]);
    labelled.forEach(({ slot }, index) => {
      expect(container.contains(slot)).toBe(true);
      expect(fake.elements[index]?.mountedIn).toBe(slot);
      expect(slot?.querySelector('[data-frame]')).not.toBeNull();
    });
  });

  it("tells of the visitor's edits in any of the three fields (Elements' change event)", async () => {
    const fake = fakeStripe();
    const onCardEdited = vi.fn();
    await createStripeProvider(settings, fake).mount(container, {
      language: 'en',
      labels,
      onCardEdited,
    });
    for (const element of fake.elements) element.change();
    expect(onCardEdited).toHaveBeenCalledTimes(3);
  });

  it("shows each field's problem under it as Elements' checks find it, and reveals the rest on Pay", async () => {
    const fake = fakeStripe();
    const onProblems = vi.fn();
    const provider = createStripeProvider(settings, fake);
    await provider.mount(container, {
      language: 'en',
      labels,
      messages: {
        number_empty: 'Enter your card number.',
        expiry_past: 'The expiry date is in the past.',
        cvv_incomplete: 'The security code is incomplete.',
      },
      onProblems,
    });
    const [number, expiry, cvv] = fake.elements;
    const shown = () =>
      [...container.querySelectorAll<HTMLElement>('.card-field__error')].map((line) =>
        line.hidden ? null : line.textContent,
      );
    expect(shown()).toEqual([null, null, null]);
    // A past expiry is whole and wrong: said at once.
    expiry?.change({ error: { code: 'invalid_expiry_year_past', message: 'Stripe words' } });
    // An unfinished CVV: said once the visitor leaves it.
    cvv?.change();
    expect(shown()).toEqual([null, 'The expiry date is in the past.', null]);
    cvv?.blur();
    expect(shown()).toEqual([
      null,
      'The expiry date is in the past.',
      'The security code is incomplete.',
    ]);
    expect(onProblems).toHaveBeenLastCalledWith({
      number: 'empty',
      expiry: 'past',
      cvv: 'incomplete',
    });
    // Pay: the empty number says so too, and takes focus.
    provider.revealProblems?.();
    expect(shown()[0]).toBe('Enter your card number.');
    expect(number?.focus).toHaveBeenCalledOnce();
    number?.change({ complete: true });
    expiry?.change({ complete: true });
    cvv?.change({ complete: true });
    expect(shown()).toEqual([null, null, null]);
    expect(onProblems).toHaveBeenLastCalledWith({ number: null, expiry: null, cvv: null });
  });

  it('rejects a ProviderError when the script cannot load, and retries on the next mount', async () => {
    const fake = fakeStripe();
    fake.loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    const provider = createStripeProvider(settings, fake);
    const error = await providerRejection(provider.mount(container, { language: 'en', labels }));
    expect(error.problem).toBe('card_form_unavailable');
    expect(container.childElementCount).toBe(0);

    await provider.mount(container, { language: 'en', labels });
    expect(fake.loadStripe).toHaveBeenCalledTimes(2);
    expect(fake.elements).toHaveLength(3);
  });

  it('rejects a ProviderError when loadStripe resolves no Stripe', async () => {
    const fake = fakeStripe();
    fake.loadStripe.mockResolvedValueOnce(null);
    await providerRejection(
      createStripeProvider(settings, fake).mount(container, { language: 'en', labels }),
    );
  });

  it('unmount destroys the elements and removes their slots', async () => {
    const fake = fakeStripe();
    const provider = createStripeProvider(settings, fake);
    await provider.mount(container, { language: 'en', labels });
    provider.unmount();
    expect(fake.elements.every((element) => element.destroyed)).toBe(true);
    expect(container.childElementCount).toBe(0);
  });

  it('mounts nothing when unmounted while Stripe.js was still loading', async () => {
    const fake = fakeStripe();
    const provider = createStripeProvider(settings, fake);
    const mounting = provider.mount(container, { language: 'en', labels });
    provider.unmount();
    await mounting;
    expect(fake.elements).toHaveLength(0);
    expect(container.childElementCount).toBe(0);
  });
});

describe('createPaymentMethod', () => {
  async function mounted() {
    const fake = fakeStripe();
    const provider = createStripeProvider(settings, fake);
    await provider.mount(container, { language: 'en', labels });
    return { fake, provider };
  }

  it('creates a card payment method from the number element with the name on card', async () => {
    const { fake, provider } = await mounted();
    fake.stripe.createPaymentMethod.mockResolvedValue({ paymentMethod: paymentMethod('pm_42') });
    await expect(
      provider.createPaymentMethod({ cardholderName: ' Ada Lovelace ' }),
    ).resolves.toEqual({ nonce: 'pm_42', bin: null });
    expect(fake.stripe.createPaymentMethod).toHaveBeenCalledExactlyOnceWith({
      type: 'card',
      card: fake.elements[0],
      billing_details: { name: 'Ada Lovelace' },
    });
  });

  it('sends no billing name when the optional name on card is empty', async () => {
    const { fake, provider } = await mounted();
    fake.stripe.createPaymentMethod.mockResolvedValue({ paymentMethod: paymentMethod('pm_1') });
    await provider.createPaymentMethod({ cardholderName: '  ' });
    expect(fake.stripe.createPaymentMethod.mock.calls[0]?.[0]).not.toHaveProperty(
      'billing_details',
    );
  });

  it("turns Stripe's error into a ProviderError with its message and decline code", async () => {
    const { fake, provider } = await mounted();
    fake.stripe.createPaymentMethod.mockResolvedValue({
      error: cardError({
        message: 'Your card was declined.',
        code: 'card_declined',
        decline_code: 'stolen_card',
      }),
    });
    const error = await providerRejection(provider.createPaymentMethod({ cardholderName: '' }));
    expect(error.message).toBe('Your card was declined.');
    expect(error.declineCode).toBe('stolen_card');
  });

  it('falls back to the error code when there is no decline code', async () => {
    const { fake, provider } = await mounted();
    fake.stripe.createPaymentMethod.mockResolvedValue({
      error: cardError({ message: 'Your card number is incomplete.', code: 'incomplete_number' }),
    });
    const error = await providerRejection(provider.createPaymentMethod({ cardholderName: '' }));
    expect(error.message).toBe('Your card number is incomplete.');
    expect(error.declineCode).toBe('incomplete_number');
  });

  it("says 'Payment error' when Stripe's error has no text (SPEC.md §8)", async () => {
    const { fake, provider } = await mounted();
    fake.stripe.createPaymentMethod.mockResolvedValue({ error: { type: 'api_error' } });
    const error = await providerRejection(provider.createPaymentMethod({ cardholderName: '' }));
    // No words from Stripe: the error-text mapping shows 'Payment error' (SPEC.md §5).
    expect(error.message).toBe('');
    expect(paymentErrorText(error)).toEqual({ key: 'payment_error' });
    expect(error.declineCode).toBeNull();
  });

  it('refuses before the fields are mounted, without calling Stripe', async () => {
    const fake = fakeStripe();
    await providerRejection(
      createStripeProvider(settings, fake).createPaymentMethod({ cardholderName: '' }),
    );
    expect(fake.stripe.createPaymentMethod).not.toHaveBeenCalled();
  });
});

describe('confirmCardPayment', () => {
  it.each(['succeeded', 'requires_capture', 'processing'] as const)(
    'resolves the intent id when the intent is %s',
    async (status) => {
      const fake = fakeStripe();
      fake.stripe.confirmCardPayment.mockResolvedValue({
        paymentIntent: paymentIntent({ id: 'pi_1', status }),
      });
      const provider = createStripeProvider(settings, fake);
      // No mount: a checkout resumed after a reload confirms before showing any field.
      await expect(provider.confirmCardPayment('pi_1_secret_x')).resolves.toBe('pi_1');
      expect(fake.stripe.confirmCardPayment).toHaveBeenCalledExactlyOnceWith('pi_1_secret_x');
    },
  );

  it("reports the decline code of the intent's last payment error", async () => {
    const fake = fakeStripe();
    fake.stripe.confirmCardPayment.mockResolvedValue({
      error: cardError({
        message: 'Your card has insufficient funds.',
        code: 'card_declined',
        payment_intent: paymentIntent({
          id: 'pi_2',
          status: 'requires_payment_method',
          last_payment_error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'insufficient_funds',
          },
        }),
      }),
    });
    const error = await providerRejection(
      createStripeProvider(settings, fake).confirmCardPayment('s'),
    );
    expect(error.message).toBe('Your card has insufficient funds.');
    expect(error.declineCode).toBe('insufficient_funds');
  });

  it('reports a failed 3-D Secure challenge with its code', async () => {
    const fake = fakeStripe();
    fake.stripe.confirmCardPayment.mockResolvedValue({
      error: cardError({
        type: 'invalid_request_error',
        message: 'We are unable to authenticate your payment method.',
        code: 'payment_intent_authentication_failure',
      }),
    });
    const error = await providerRejection(
      createStripeProvider(settings, fake).confirmCardPayment('s'),
    );
    expect(error.declineCode).toBe('payment_intent_authentication_failure');
  });

  it('refuses an intent left in requires_action (challenge not completed)', async () => {
    const fake = fakeStripe();
    fake.stripe.confirmCardPayment.mockResolvedValue({
      paymentIntent: paymentIntent({ id: 'pi_3', status: 'requires_action' }),
    });
    const error = await providerRejection(
      createStripeProvider(settings, fake).confirmCardPayment('s'),
    );
    expect(error.declineCode).toBe('authentication_required');
  });

  it("refuses an intent declined after authentication, with the last error's decline code", async () => {
    const fake = fakeStripe();
    fake.stripe.confirmCardPayment.mockResolvedValue({
      paymentIntent: paymentIntent({
        id: 'pi_4',
        status: 'requires_payment_method',
        last_payment_error: {
          type: 'card_error',
          message: 'Your card was declined.',
          decline_code: 'generic_decline',
        },
      }),
    });
    const error = await providerRejection(
      createStripeProvider(settings, fake).confirmCardPayment('s'),
    );
    expect(error.message).toBe('Your card was declined.');
    expect(error.declineCode).toBe('generic_decline');
  });

  it('rejects a ProviderError when Stripe.js cannot load', async () => {
    const fake = fakeStripe();
    fake.loadStripe.mockRejectedValue(new Error('network'));
    await providerRejection(createStripeProvider(settings, fake).confirmCardPayment('s'));
  });
});

it.each([
  ['de', 'de'],
  ['pt-BR', 'pt-BR'],
  ['fr-BE', 'fr'],
  ['xx', 'auto'],
])('uses Stripe locale %s → %s', (language, locale) => {
  expect(stripeLocale(language)).toBe(locale);
});

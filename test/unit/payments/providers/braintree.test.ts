// @vitest-environment happy-dom
import type { BraintreeError } from 'braintree-web/core';
import type { ThreeDSecureVerificationData } from 'braintree-web/three-d-secure';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createBraintreeProvider } from '../../../../islands/payments/providers/braintree';
import { client, fakeBraintree, tokenized, verified } from './fake-braintree';
import { providerRejection } from './provider-error';

const labels = { number: 'Card number', expiry: 'Expiry date', cvv: 'Security code', name: 'Name' };

function braintreeError(code: string, message: string): BraintreeError {
  return Object.assign(new Error(message), {
    name: 'BraintreeError',
    code,
    type: 'CUSTOMER' as const,
    details: {},
  });
}

let container: HTMLElement;
beforeEach(() => {
  document.body.innerHTML = '';
  container = document.createElement('form');
  document.body.appendChild(container);
});

async function mounted(threeDSecure = true) {
  const fake = fakeBraintree();
  const provider = createBraintreeProvider({ clientToken: 'bt-token', threeDSecure }, fake.deps);
  await provider.mount(container, { language: 'en', labels });
  return { fake, provider };
}

describe('mount', () => {
  it('loads nothing until mounted', () => {
    const fake = fakeBraintree();
    createBraintreeProvider({ clientToken: 'bt-token', threeDSecure: true }, fake.deps);
    expect(fake.deps.client).not.toHaveBeenCalled();
    expect(fake.deps.hostedFields).not.toHaveBeenCalled();
    expect(fake.deps.threeDSecure).not.toHaveBeenCalled();
  });

  it('puts hosted number, MM/YY and CVV fields into labelled slots of the container', async () => {
    const { fake } = await mounted();
    expect(fake.createClient).toHaveBeenCalledExactlyOnceWith({ authorization: 'bt-token' });
    const options = fake.createHostedFields.mock.calls[0]?.[0];
    expect(options?.client).toBe(client);
    const fields = options?.fields ?? {};
    expect(Object.keys(fields)).toEqual(['number', 'expirationDate', 'cvv']);
    expect([fields.number, fields.expirationDate, fields.cvv].map((f) => f?.placeholder)).toEqual([
      '1234 1234 1234 1234',
      'MM/YY',
      'CVV',
    ]);
    const labelled = [...container.querySelectorAll('label')];
    expect(labelled.map((label) => label.textContent)).toEqual([
      'Card number',
      'Expiry date',
      'Security code',
    ]);
    expect(labelled.map((label) => document.getElementById(label.htmlFor))).toEqual([
      fields.number?.container,
      fields.expirationDate?.container,
      fields.cvv?.container,
    ]);
    expect(fields.number?.internalLabel).toBe('Card number');
  });

  it('prepares 3-D Secure (version 2) with the fields when the portal asks for it', async () => {
    const { fake } = await mounted(true);
    await vi.waitFor(() => expect(fake.createThreeDSecure).toHaveBeenCalledOnce());
    expect(fake.createThreeDSecure).toHaveBeenCalledWith({ client, version: '2' });
    expect(fake.createClient).toHaveBeenCalledOnce();
  });

  it('does not load 3-D Secure at mount when the portal does not ask for it', async () => {
    const { fake } = await mounted(false);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fake.deps.threeDSecure).not.toHaveBeenCalled();
  });

  it('rejects a ProviderError when Braintree cannot load, and retries on the next mount', async () => {
    const fake = fakeBraintree();
    fake.createClient.mockRejectedValueOnce(braintreeError('CLIENT_GATEWAY_NETWORK', 'down'));
    const provider = createBraintreeProvider({ clientToken: 't', threeDSecure: false }, fake.deps);
    await providerRejection(provider.mount(container, { language: 'en', labels }));
    expect(container.childElementCount).toBe(0);
    await provider.mount(container, { language: 'en', labels });
    expect(fake.createHostedFields).toHaveBeenCalledOnce();
  });

  it('rejects a ProviderError and leaves no slots when the hosted fields fail', async () => {
    const fake = fakeBraintree();
    fake.createHostedFields.mockRejectedValueOnce(
      braintreeError('HOSTED_FIELDS_TIMEOUT', 'Hosted Fields timed out when attempting to set up.'),
    );
    const provider = createBraintreeProvider({ clientToken: 't', threeDSecure: false }, fake.deps);
    const error = await providerRejection(provider.mount(container, { language: 'en', labels }));
    // Braintree's set-up errors are technical: the visitor reads the translated card-form text.
    expect(error.problem).toBe('card_form_unavailable');
    expect(container.childElementCount).toBe(0);
  });

  it("tells of the visitor's edits through the hosted fields' validity and emptiness events", async () => {
    const fake = fakeBraintree();
    const provider = createBraintreeProvider({ clientToken: 't', threeDSecure: false }, fake.deps);
    const onCardEdited = vi.fn();
    await provider.mount(container, { language: 'en', labels, onCardEdited });
    const edits = fake.hostedFields.on.mock.calls.slice(0, 4);
    expect(edits.map(([event]) => event)).toEqual([
      'validityChange',
      'empty',
      'notEmpty',
      'cardTypeChange',
    ]);
    for (const [, handler] of edits) handler();
    expect(onCardEdited).toHaveBeenCalledTimes(4);
  });

  it("shows each field's problem under it from the hosted fields' validity, and reveals on Pay", async () => {
    const fake = fakeBraintree();
    const provider = createBraintreeProvider({ clientToken: 't', threeDSecure: false }, fake.deps);
    const onProblems = vi.fn();
    await provider.mount(container, {
      language: 'en',
      labels,
      messages: { number_invalid: 'Your card number is not valid.', cvv_empty: 'Enter the code.' },
      onProblems,
    });
    const emit = (type: string, event: unknown) => {
      for (const [name, handler] of fake.hostedFields.on.mock.calls) {
        if (name === type) handler(event as never);
      }
    };
    const field = (state: Record<string, boolean>) => ({
      isEmpty: false,
      isValid: false,
      isPotentiallyValid: true,
      ...state,
    });
    // '4x': Braintree knows it can never become valid.
    emit('validityChange', {
      emittedBy: 'number',
      fields: { number: field({ isPotentiallyValid: false }) },
    });
    const shown = () =>
      [...container.querySelectorAll<HTMLElement>('.card-field__error')].map((line) =>
        line.hidden ? null : line.textContent,
      );
    expect(shown()).toEqual(['Your card number is not valid.', null, null]);
    expect(onProblems).toHaveBeenLastCalledWith({
      number: 'invalid',
      expiry: 'empty',
      cvv: 'empty',
    });
    provider.revealProblems?.();
    expect(shown()[2]).toBe('Enter the code.');
  });

  it('unmount tears the hosted fields down and removes their slots', async () => {
    const { fake, provider } = await mounted(false);
    provider.unmount();
    expect(fake.hostedFields.teardown).toHaveBeenCalledOnce();
    expect(container.childElementCount).toBe(0);
  });
});

describe('createPaymentMethod', () => {
  it("tokenizes the fields with the name on card and resolves the nonce with the card's BIN", async () => {
    const { fake, provider } = await mounted();
    fake.hostedFields.tokenize.mockResolvedValue(tokenized('nonce-1', '400000'));
    await expect(provider.createPaymentMethod({ cardholderName: 'Ada Lovelace' })).resolves.toEqual(
      { nonce: 'nonce-1', bin: '400000' },
    );
    expect(fake.hostedFields.tokenize).toHaveBeenCalledExactlyOnceWith({
      cardholderName: 'Ada Lovelace',
    });
  });

  it("turns a field error into a ProviderError with Braintree's message", async () => {
    const { fake, provider } = await mounted();
    fake.hostedFields.tokenize.mockRejectedValue(
      braintreeError(
        'HOSTED_FIELDS_FIELDS_INVALID',
        'Some payment input fields are invalid. Cannot tokenize invalid card fields.',
      ),
    );
    const error = await providerRejection(provider.createPaymentMethod({ cardholderName: '' }));
    expect(error.message).toBe(
      'Some payment input fields are invalid. Cannot tokenize invalid card fields.',
    );
    expect(error.declineCode).toBeNull();
  });

  it('refuses before the fields are mounted', async () => {
    const fake = fakeBraintree();
    const provider = createBraintreeProvider({ clientToken: 't', threeDSecure: true }, fake.deps);
    await providerRejection(provider.createPaymentMethod({ cardholderName: '' }));
  });
});

describe('verifyCard (SPEC.md §4 Alternate provider with 3-D Secure)', () => {
  const input = { nonce: 'server-nonce', amount: '19.99', email: 'ada@example.com', bin: '400000' };

  it("verifies the portal's nonce for its amount and resolves the verified nonce", async () => {
    const { fake, provider } = await mounted();
    fake.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'verified-nonce',
        { liabilityShifted: true, liabilityShiftPossible: true },
        'authenticate_successful',
      ),
    );
    await expect(provider.verifyCard?.(input)).resolves.toBe('verified-nonce');
    const options = fake.threeDSecure.verifyCard.mock.calls[0]?.[0];
    expect(options).toMatchObject({
      nonce: 'server-nonce',
      amount: '19.99',
      email: 'ada@example.com',
      bin: '400000',
    });
    // The lookup result lets the challenge go on.
    const next = vi.fn();
    options?.onLookupComplete?.({} as ThreeDSecureVerificationData, next);
    expect(next).toHaveBeenCalledOnce();
  });

  it('refuses when a liability shift was possible but did not happen', async () => {
    const { fake, provider } = await mounted();
    fake.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'n',
        { liabilityShifted: false, liabilityShiftPossible: true },
        'authenticate_failed',
      ),
    );
    const error = await providerRejection(provider.verifyCard!(input));
    expect(error.problem).toBe('payment_not_authenticated');
    expect(error.declineCode).toBe('authentication_failed');
    expect(error.processorResponse).toBe('authenticate_failed');
  });

  it('proceeds when no liability shift was possible (card not enrolled)', async () => {
    const { fake, provider } = await mounted();
    fake.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'n-2',
        { liabilityShifted: false, liabilityShiftPossible: false },
        'lookup_not_enrolled',
      ),
    );
    await expect(provider.verifyCard?.(input)).resolves.toBe('n-2');
  });

  it("turns a verification error into a ProviderError with Braintree's message", async () => {
    const { fake, provider } = await mounted();
    fake.threeDSecure.verifyCard.mockRejectedValue(
      braintreeError('THREEDS_LOOKUP_VALIDATION_ERROR', 'The lookup request was rejected.'),
    );
    const error = await providerRejection(provider.verifyCard!(input));
    expect(error.message).toBe('The lookup request was rejected.');
  });

  it('verifies with the BIN it is given, not the card these fields tokenized last', async () => {
    const { fake, provider } = await mounted();
    fake.hostedFields.tokenize.mockResolvedValue(tokenized('card-nonce', '555555'));
    await provider.createPaymentMethod({ cardholderName: '' });
    fake.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'n',
        { liabilityShifted: true, liabilityShiftPossible: true },
        'authenticate_successful',
      ),
    );
    await provider.verifyCard?.(input);
    expect(fake.threeDSecure.verifyCard.mock.calls[0]?.[0].bin).toBe('400000');
  });

  it("leaves an unknown BIN to Braintree's own refusal", async () => {
    const { fake, provider } = await mounted();
    fake.threeDSecure.verifyCard.mockRejectedValue(
      braintreeError(
        'THREEDS_MISSING_VERIFY_CARD_OPTION',
        'verifyCard options must include a BIN.',
      ),
    );
    const error = await providerRejection(provider.verifyCard!({ ...input, bin: null }));
    expect(fake.threeDSecure.verifyCard.mock.calls[0]?.[0].bin).toBe('');
    expect(error.message).toBe('verifyCard options must include a BIN.');
  });

  it('loads 3-D Secure on demand when it was not prepared at mount', async () => {
    const { fake, provider } = await mounted(false);
    fake.threeDSecure.verifyCard.mockResolvedValue(
      verified(
        'n-3',
        { liabilityShifted: true, liabilityShiftPossible: true },
        'authenticate_successful',
      ),
    );
    await expect(provider.verifyCard?.(input)).resolves.toBe('n-3');
    expect(fake.createThreeDSecure).toHaveBeenCalledExactlyOnceWith({ client, version: '2' });
  });
});

it('refuses confirmCardPayment: it is not a Braintree operation', async () => {
  const { provider } = await mounted();
  const error = await providerRejection(provider.confirmCardPayment('pi_secret'));
  expect(error.problem).toBe('payment_error');
});

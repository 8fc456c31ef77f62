import { describe, expect, it } from 'vitest';
import { EN } from '../../../locales';
import {
  declinedPaymentText,
  errorTranslationKey,
  GOOGLE_BUTTON_ERROR_KEYS,
  googleProblemText,
  isEmailTakenMessage,
  PAYMENT_ERROR_KEYS,
  PHONE_LOOKUP_ERROR_KEYS,
  paymentErrorText,
  paymentNoResultText,
  phoneLookupErrorText,
  readableText,
  SIGN_UP_ERROR_KEYS,
  signupErrorText,
  socialSignInErrorText,
} from '../../../shared/api/error-text';
import { ApiFailure } from '../../../shared/api/request';

const http = (status: number, messages: string[], code?: string) =>
  new ApiFailure('http', status, { errors: { messages }, ...(code ? { code } : {}) });
const network = new ApiFailure('network', null, null);
const parse = new ApiFailure('parse', 200, null);
const shape = new ApiFailure('shape', 200, { data: {} });

function english(key: string): string {
  const [area, name] = key.split('.') as [string, string];
  return (EN[area] as Record<string, string>)[name]!;
}

describe('every error text key a screen hands to its island has its English copy', () => {
  it.each(
    Object.entries({
      'sign-up': SIGN_UP_ERROR_KEYS,
      'phone lookup': PHONE_LOOKUP_ERROR_KEYS,
      'Google button': GOOGLE_BUTTON_ERROR_KEYS,
      payment: PAYMENT_ERROR_KEYS,
    }),
  )('%s', (_, keys) => {
    for (const key of keys) expect(english(errorTranslationKey(key)), key).toMatch(/\w/);
  });

  it('the SPEC.md §8 texts are word for word', () => {
    expect(english('errors.signup_failed')).toBe('Failed to create an account');
    expect(english('errors.email_exists')).toBe('The email has already been taken.');
    expect(english('errors.phone_incorrect')).toBe('Phone number is incorrect');
    expect(english('errors.lookup_failed')).toBe('An error occurred, please try again');
    expect(english('errors.google_not_ready')).toBe(
      'Google Sign-In is not ready yet. Please wait a moment and try again.',
    );
  });
});

describe('sign-up failures (SPEC.md §4, §5, §8)', () => {
  it.each([
    'The email has already been taken.',
    'THE EMAIL HAS ALREADY BEEN TAKEN',
    'user.email.taken',
    'Error: UserEmailTaken',
  ])('"%s" is the translated "email exists"', (message) => {
    expect(isEmailTakenMessage(message)).toBe(true);
    expect(signupErrorText(http(422, ['Something else', message]))).toEqual({
      key: 'email_exists',
    });
  });

  it('never shows a message as it is: any other refusal is "Failed to create an account"', () => {
    for (const messages of [
      ['The name is too long.', 'Second'],
      ['Emulated failure of signup'],
      ['Failed to create an account'],
    ]) {
      expect(signupErrorText(http(422, messages, 'portal_refused'))).toEqual({
        key: 'signup_failed',
      });
    }
  });

  it("falls back to 'Failed to create an account' without messages or without an answer", () => {
    for (const failure of [
      http(500, [], 'portal_error'),
      http(502, [], 'portal_unavailable'),
      http(504, ['Portal timed out after 10000 ms'], 'portal_timeout'),
      http(502, [], 'portal_bad_response'),
      network,
      parse,
      shape,
      new Error('boom'),
      undefined,
    ]) {
      expect(signupErrorText(failure)).toEqual({ key: 'signup_failed' });
    }
  });

  it('a rate-limited sign-up reads the limit text', () => {
    expect(signupErrorText(http(429, ['Too many requests'], 'rate_limited'))).toEqual({
      key: 'rate_limited',
    });
  });

  it('never shows the worker’s own messages, which are for developers', () => {
    expect(signupErrorText(http(400, ['body.email: Invalid'], 'invalid_request'))).toEqual({
      key: 'signup_failed',
    });
  });
});

describe('Google sign-in failures (SPEC.md §8)', () => {
  it('a refused credential, or no answer at all, is "an error occurred while signing in"', () => {
    for (const failure of [
      http(401, ['Invalid Google token'], 'google_token_invalid'),
      http(502, [], 'google_keys_unavailable'),
      http(502, [], 'portal_unavailable'),
      network,
      shape,
    ]) {
      expect(socialSignInErrorText(failure)).toEqual({ key: 'google_sign_in_failed' });
    }
  });

  it("the portal refusing without messages is §8's 'Failed to create an account'", () => {
    expect(socialSignInErrorText(http(500, [], 'portal_error'))).toEqual({ key: 'signup_failed' });
  });

  it('the portal’s messages read as for email, email-taken translated', () => {
    expect(socialSignInErrorText(http(422, ['The email has already been taken.']))).toEqual({
      key: 'email_exists',
    });
    expect(socialSignInErrorText(http(422, ['Account disabled']))).toEqual({
      key: 'signup_failed',
    });
  });

  it('a worker without a client id is "not properly configured"; a limit is the limit', () => {
    expect(socialSignInErrorText(http(503, [], 'google_not_configured'))).toEqual({
      key: 'google_not_configured',
    });
    expect(socialSignInErrorText(http(429, [], 'rate_limited'))).toEqual({ key: 'rate_limited' });
  });

  it('each button problem has its own text', () => {
    const keys = (
      [
        'not_configured',
        'not_available',
        'init_failed',
        'not_ready',
        'no_credential',
        'unexpected',
      ] as const
    ).map((problem) => googleProblemText(problem).key);
    expect(new Set(keys).size).toBe(6);
    expect(english(errorTranslationKey(googleProblemText('no_credential').key))).toBe(
      'Failed to create an account using Google, please try again or use the default email method.',
    );
  });
});

describe('phone lookup failures (SPEC.md §5, §8)', () => {
  it('any non-200 answer about the number is "Phone number is incorrect"', () => {
    for (const failure of [
      http(400, ['Phone number is incorrect']),
      http(500, [], 'portal_error'),
      http(400, [], 'invalid_request'),
      new ApiFailure('http', 404, null),
    ]) {
      expect(phoneLookupErrorText(failure)).toEqual({ key: 'phone_incorrect' });
    }
  });

  it('no answer from the portal is "An error occurred, please try again"', () => {
    for (const failure of [
      network,
      parse,
      shape,
      http(502, [], 'portal_unavailable'),
      http(504, [], 'portal_timeout'),
      http(502, [], 'portal_bad_response'),
      http(500, [], 'internal_error'),
      new TypeError('x'),
    ]) {
      expect(phoneLookupErrorText(failure)).toEqual({ key: 'lookup_failed' });
    }
  });

  it('a rate-limited lookup reads the limit text', () => {
    expect(phoneLookupErrorText(http(429, [], 'rate_limited'))).toEqual({ key: 'rate_limited' });
  });
});

describe('readableText', () => {
  it('translates keys with the texts a screen handed over, and shows server text as is', () => {
    const texts = { email_exists: 'Diese E-Mail-Adresse wird bereits verwendet' };
    expect(readableText({ key: 'email_exists' }, texts)).toBe(texts.email_exists);
    expect(readableText({ text: 'Account disabled' }, texts)).toBe('Account disabled');
  });
});

describe('payment failures (SPEC.md §8 Payment)', () => {
  it('the SPEC.md §8 payment texts are word for word', () => {
    expect(english('errors.payment_no_answer')).toBe('An error has occurred (look at console)');
    expect(english('errors.payment_no_result')).toBe('Unknown error. Please try again');
    expect(english('errors.payment_failed')).toBe('An error has occurred');
    expect(english('errors.payment_error')).toBe('Payment error');
  });

  it.each([
    ['no answer', network, { key: 'payment_no_answer' }],
    ['an answer that is not JSON', parse, { key: 'payment_no_answer' }],
    ['an answer of the wrong shape', shape, { key: 'payment_no_answer' }],
    [
      'the portal unreachable',
      http(502, ['fetch failed'], 'portal_unavailable'),
      { key: 'payment_no_answer' },
    ],
    ['the portal too slow', http(504, [], 'portal_timeout'), { key: 'payment_no_answer' }],
    ['a limit', http(429, ['Slow down'], 'rate_limited'), { key: 'rate_limited' }],
    [
      'a plan the visitor was not offered',
      http(403, [], 'plan_not_offered'),
      { key: 'offer_not_available' },
    ],
    [
      'a coupon the offer does not carry',
      http(403, [], 'coupon_not_offered'),
      { key: 'offer_not_available' },
    ],
    [
      'an upsell before a plan',
      http(403, [], 'main_purchase_required'),
      { key: 'offer_needs_purchase' },
    ],
    [
      "a purchase's earlier attempt charged or is being confirmed",
      http(409, [], 'purchase_confirming'),
      { key: 'payment_may_have_gone_through' },
    ],
    [
      'a purchase already paid',
      http(409, [], 'purchase_charged'),
      { key: 'payment_may_have_gone_through' },
    ],
    ['a card the purchase stopped', http(402, [], 'card_stopped'), { key: 'payment_card_stopped' }],
    [
      'a card kept from the other provider',
      http(409, [], 'provider_not_allowed'),
      { key: 'payment_card_stopped' },
    ],
    [
      "a card past the networks' counts",
      http(429, [], 'card_retry_limit'),
      { key: 'payment_card_retry_limit' },
    ],
    ['the portal without messages', http(500, []), { key: 'payment_failed' }],
    [
      'the worker refusing (its messages are for developers)',
      http(400, ['body.gateway: Required'], 'invalid_request'),
      { key: 'payment_failed' },
    ],
    ['an email-taken message', http(422, ['x', 'user.email.taken']), { key: 'email_exists' }],
    [
      'the portal’s messages, never shown as they are',
      http(422, ['Card not supported.', 'Second']),
      { key: 'payment_failed' },
    ],
    [
      'a provider error',
      new Error('Your card number is incomplete.'),
      { text: 'Your card number is incomplete.' },
    ],
    ['a string', 'Card expired', { text: 'Card expired' }],
    [
      'an object with a message',
      { message: 'Processor unavailable' },
      { text: 'Processor unavailable' },
    ],
    ['an error without text', new Error(''), { key: 'payment_error' }],
    ['an object without a message', { code: 42 }, { key: 'payment_error' }],
    ['nothing', undefined, { key: 'payment_error' }],
  ])('%s', (_, error, text) => {
    expect(paymentErrorText(error)).toEqual(text);
  });

  it('a refused payment shows the provider’s words, else the processor’s, else "Payment error"', () => {
    expect(
      declinedPaymentText({ message: 'Declined.', processorResponse: 'Do not honor' }),
    ).toEqual({
      text: 'Declined.',
    });
    expect(declinedPaymentText({ message: ' ', processorResponse: 'Do not honor' })).toEqual({
      text: 'Do not honor',
    });
    expect(declinedPaymentText({})).toEqual({ key: 'payment_error' });
    expect(paymentNoResultText()).toEqual({ key: 'payment_no_result' });
  });
});

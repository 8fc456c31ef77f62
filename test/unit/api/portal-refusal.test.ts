import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EN } from '../../../locales';
import { API_PATHS, type ApiCallName } from '../../../shared/api/paths';
import { isWorkerErrorCode } from '../../../shared/api/worker-error-codes';
import {
  mappedRefusal,
  PORTAL_REFUSAL_TEXTS,
  PORTAL_REFUSALS,
  RAW_TEXT_LOGGED,
  rawRefusalForLog,
  unshapedRefusal,
} from '../../../worker/portal-client/portal-refusal';

/**
 * The table of worker/portal-client/portal-refusal.ts: which product API words mean what, per call.
 */

const refused = (messages: string[], extra: Record<string, unknown> = {}) => ({
  errors: { messages },
  ...extra,
});

const API_CALL_NAMES = Object.keys(API_PATHS) as ApiCallName[];

const SPEC_TEXTS: ReadonlySet<string> = new Set(Object.values(PORTAL_REFUSAL_TEXTS));

describe('the texts are SPEC.md’s, word for word', () => {
  it('as the islands’ English copy has them', () => {
    const errors = EN.errors as Record<string, string>;
    // The copy ends the sentence with its full stop; the spec quotes it without.
    expect(errors.email_exists).toBe(`${PORTAL_REFUSAL_TEXTS.emailTaken}.`);
    expect(PORTAL_REFUSAL_TEXTS.accountFailed).toBe(errors.signup_failed);
    expect(PORTAL_REFUSAL_TEXTS.phoneIncorrect).toBe(errors.phone_incorrect);
    expect(PORTAL_REFUSAL_TEXTS.generic).toBe(errors.payment_failed);
    expect(PORTAL_REFUSAL_TEXTS.userActionRequired).toBe('User action required');
    expect(PORTAL_REFUSAL_TEXTS.paymentDeclined).toBe('Payment declined');
  });

  it('every call of SPEC.md §7 has its row', () => {
    expect(Object.keys(PORTAL_REFUSALS).sort()).toEqual([...API_CALL_NAMES].sort());
  });
});

describe('per call: what a refusal means, and what anything else reads', () => {
  it.each([
    ['signup', 'Failed to create an account'],
    ['socialSignIn', 'Failed to create an account'],
    ['paymentSettings', 'An error has occurred'],
    ['deeplink', 'An error has occurred'],
    ['country', 'An error has occurred'],
    ['phoneInfo', 'Phone number is incorrect'],
    ['pollingSubscription', 'An error has occurred'],
    ['pollingResult', 'An error has occurred'],
    ['directSubscription', 'An error has occurred'],
  ] as const)('%s: unknown words read "%s"', (call, text) => {
    expect(mappedRefusal(call, refused(['Emulated failure of signup']))).toEqual({
      errors: { messages: [text] },
      code: 'portal_refused',
    });
    expect(unshapedRefusal(call)).toEqual({ errors: { messages: [text] }, code: 'portal_error' });
  });

  it.each([
    'The email has already been taken.',
    'the email has already been taken',
    'user.email.taken',
    'Error: UserEmailTaken',
  ])('"%s" is the email-taken text on the sign-ups and the charges (SPEC.md §5, §8)', (words) => {
    for (const call of [
      'signup',
      'socialSignIn',
      'pollingSubscription',
      'directSubscription',
    ] as const) {
      expect(mappedRefusal(call, refused(['other', words]))).toEqual({
        errors: { messages: ['The email has already been taken'] },
        code: 'email_taken',
      });
    }
    // A lookup or the settings have no account to say it about: the step's own text.
    expect(mappedRefusal('phoneInfo', refused([words])).code).toBe('portal_refused');
    expect(mappedRefusal('paymentSettings', refused([words])).code).toBe('portal_refused');
  });

  it("'User action required' keeps the 3-D Secure data on a charge, and only there", () => {
    const data = { payment_method_nonce: 'n-1', validation_amount: 6.99 };
    expect(
      mappedRefusal('directSubscription', refused(['user action required.'], { data })),
    ).toEqual({
      errors: { messages: ['User action required'] },
      code: 'user_action_required',
      data,
    });
    expect(mappedRefusal('signup', refused(['User action required'], { data }))).toEqual({
      errors: { messages: ['Failed to create an account'] },
      code: 'portal_refused',
    });
  });

  it('a decline code makes a decline whatever the words; a code in words is "declined"', () => {
    expect(
      mappedRefusal('directSubscription', refused(['Do Not Honor'], { decline_code: '2001' })),
    ).toEqual({
      errors: { messages: ['Payment declined'] },
      code: 'payment_declined',
      decline_code: '2001',
    });
    expect(
      mappedRefusal('directSubscription', refused([], { decline_code: 'card declined <b>' }))
        .decline_code,
    ).toBe('declined');
  });
});

/** Words a product API might send: anything, including fragments of the spec's texts. */
const words = fc.array(fc.string({ maxLength: 80 }), { maxLength: 5 });
const call = fc.constantFrom(...API_CALL_NAMES);

describe('properties', () => {
  it('whatever the words, the browser reads one SPEC.md text and a code that is not the worker’s', () => {
    fc.assert(
      fc.property(
        call,
        words,
        fc.option(fc.string(), { nil: undefined }),
        (name, messages, declineCode) => {
          const body = mappedRefusal(name, refused(messages, { decline_code: declineCode }));
          expect(body.errors.messages).toHaveLength(1);
          expect(SPEC_TEXTS.has(body.errors.messages[0]!)).toBe(true);
          expect(isWorkerErrorCode(body.code)).toBe(false);
          expect(
            Object.keys(body).every((key) =>
              ['errors', 'code', 'decline_code', 'data'].includes(key),
            ),
          ).toBe(true);
          if (body.decline_code !== undefined) expect(body.decline_code).toMatch(/^[\w.-]{1,64}$/);
        },
      ),
    );
  });

  it('the log keeps the words on one line, at most RAW_TEXT_LOGGED characters', () => {
    fc.assert(
      fc.property(words, (messages) => {
        const logged = rawRefusalForLog(messages);
        if (logged === undefined) {
          expect(messages.join('').trim()).toBe('');
          return;
        }
        expect(logged.length).toBeLessThanOrEqual(RAW_TEXT_LOGGED);
        expect(logged).not.toMatch(/[\n\r\t]/);
        const flat = messages.join(' | ').replace(/\s+/g, ' ').trim();
        expect(flat.startsWith(logged.replace(/…$/, ''))).toBe(true);
      }),
    );
  });
});

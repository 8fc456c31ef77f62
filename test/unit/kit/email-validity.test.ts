import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail } from '../../../shared/email-validity';

/** The browser's own `type=email` rule (WHATWG HTML, "valid email address"). */
const BROWSER_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

describe('isValidEmail (the emailValidity the signup screen passes in, SPEC.md §5)', () => {
  it.each([
    'anna@gmail.com',
    'Anna.Smith@Example.CO.UK',
    'o.reilly+funnel@yahoo.com',
    "o'reilly@hotmail.com",
    'user_1-x@mail.xn--p1ai',
    '  padded@gmail.com  ',
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['no @', 'anna'],
    ['no domain', 'anna@'],
    ['no local part', '@gmail.com'],
    ['domain without a dot (typo for gmail.com)', 'anna@gmail'],
    ['one-letter top-level domain', 'anna@gmail.c'],
    ['numeric top-level domain', 'anna@gmail.123'],
    ['two @', 'anna@@gmail.com'],
    ['space inside', 'an na@gmail.com'],
    ['leading dot', '.anna@gmail.com'],
    ['trailing dot before @', 'anna.@gmail.com'],
    ['two dots in a row', 'an..na@gmail.com'],
    ['label starting with a hyphen', 'anna@-gmail.com'],
    ['label ending with a hyphen', 'anna@gmail-.com'],
    ['empty domain label', 'anna@gmail..com'],
    ['trailing dot', 'anna@gmail.com.'],
    ['non-ASCII domain (browsers send punycode)', 'anna@gmäil.com'],
    ['local part over 64 characters', `${'a'.repeat(65)}@gmail.com`],
    ['over 254 characters in all', `a@${Array(5).fill('b'.repeat(60)).join('.')}.com`],
  ])('refuses an address with %s', (_reason, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('accepts every RFC address with a real top-level domain', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        expect(isValidEmail(email)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('never calls valid what the browser refuses, so its own check cannot block a valid value', () => {
    const emailLike = fc
      .tuple(
        fc.string({ unit: fc.constantFrom(...'ab.-_+@ 1!'.split('')), maxLength: 12 }),
        fc.string({ unit: fc.constantFrom(...'ab.-1'.split('')), maxLength: 12 }),
      )
      .map(([local, domain]) => `${local}@${domain}`);
    fc.assert(
      fc.property(fc.oneof(emailLike, fc.emailAddress()), (email) => {
        if (isValidEmail(email)) expect(email.trim()).toMatch(BROWSER_EMAIL);
      }),
      { numRuns: 2000 },
    );
  });
});

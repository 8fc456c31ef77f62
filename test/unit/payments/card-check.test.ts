import { describe, expect, it } from 'vitest';
import {
  brandOf,
  cardProblems,
  cvvLengthOf,
  formatCardNumber,
  formatExpiry,
  passesLuhn,
} from '../../../shared/card-check';
import { problemShown } from '../../../shared/card-field-problems';

/** 15 March 2026 in the visitor's time. */
const TODAY = new Date(2026, 2, 15);
const problems = (number: string, expiry = '12/34', cvv = '123') =>
  cardProblems({ number, expiry, cvv }, TODAY);

describe('the card number', () => {
  it("passes Stripe's test numbers and fails one digit changed (Luhn)", () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(problems('4242 4242 4242 4242').number).toBeNull();
    expect(problems('4242 4242 4242 4241').number).toBe('invalid');
  });

  it("is whole only at its network's length", () => {
    expect(brandOf('378282246310005')).toBe('amex');
    expect(problems('378282246310005', '12/34', '1234').number).toBeNull();
    expect(problems('37828224631000').number).toBe('incomplete');
    expect(problems('5555 5555 5555 4444').number).toBeNull();
    expect(problems('5555 5555 5555 44444').number).toBe('invalid');
    expect(problems('4242 4242').number).toBe('incomplete');
    expect(problems('').number).toBe('empty');
  });

  it('is spaced as printed: 4-4-4-4, or 4-6-5 for American Express', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('42a4-2')).toBe('4242');
  });
});

describe('the expiry', () => {
  it('is good through the last day of its month, and past before', () => {
    expect(problems('4242424242424242', '03/26').expiry).toBeNull();
    expect(problems('4242424242424242', '02/26').expiry).toBe('past');
    expect(problems('4242424242424242', '13/30').expiry).toBe('invalid');
    expect(problems('4242424242424242', '1/2').expiry).toBe('incomplete');
    expect(problems('4242424242424242', '').expiry).toBe('empty');
  });

  it('takes a slash after the month as typed', () => {
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('12/3')).toBe('12/3');
  });
});

describe('the CVV', () => {
  it('has 4 digits for American Express and 3 for the others', () => {
    expect(cvvLengthOf('3782')).toBe(4);
    expect(cvvLengthOf('4242')).toBe(3);
    expect(problems('378282246310005', '12/34', '123').cvv).toBe('incomplete');
    expect(problems('4242424242424242', '12/34', '1234').cvv).toBe('invalid');
    expect(problems('4242424242424242', '12/34', '').cvv).toBe('empty');
  });
});

describe('when a problem shows beside its field', () => {
  it('whole and wrong at once; unfinished once left; empty only when Pay asks', () => {
    const typing = { left: false, revealed: false };
    expect(problemShown('past', typing)).toBe(true);
    expect(problemShown('invalid', typing)).toBe(true);
    expect(problemShown('incomplete', typing)).toBe(false);
    expect(problemShown('incomplete', { left: true, revealed: false })).toBe(true);
    expect(problemShown('empty', { left: true, revealed: false })).toBe(false);
    expect(problemShown('empty', { left: false, revealed: true })).toBe(true);
    expect(problemShown(null, { left: true, revealed: true })).toBe(false);
  });
});

import { beforeEach, expect, it } from 'vitest';
import { newAttempt } from '../../../islands/payments/attempt';
import { checkoutAttempts } from '../../../islands/payments/checkout-attempts';
import { $checkout } from '../../../islands/stores/checkout';
import { cardRequest } from './fakes';

beforeEach(() => {
  $checkout.setKey('attempt', null);
});

it('keeps the attempt in the persisted $checkout slice, and reads a malformed one as none', () => {
  const attempt = newAttempt(cardRequest(), { key: 'key-1', nonce: 'pm_1', bin: null, now: 1000 });
  expect(checkoutAttempts.load()).toBeNull();
  checkoutAttempts.save(attempt);
  expect($checkout.get().attempt).toEqual(attempt);
  expect(checkoutAttempts.load()).toEqual(attempt);
  $checkout.setKey('attempt', { key: 'key-1' } as never);
  expect(checkoutAttempts.load()).toBeNull();
  checkoutAttempts.save(attempt);
  checkoutAttempts.clear();
  expect($checkout.get().attempt).toBeNull();
});

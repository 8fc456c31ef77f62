import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_MAX_AGE_MS,
  idempotencyKeyOf,
  isStale,
  newAttempt,
  readAttempt,
} from '../../../islands/payments/attempt';
import { cardRequest } from './fakes';

const attempt = newAttempt(cardRequest(), { key: 'key-1', nonce: 'pm_1', bin: null, now: 1000 });

describe('a stored purchase attempt', () => {
  it('reads back what was stored, and nothing from a malformed value', () => {
    expect(readAttempt(JSON.parse(JSON.stringify(attempt)))).toEqual(attempt);
    expect(readAttempt(null)).toBeNull();
    expect(readAttempt({ ...attempt, key: '' })).toBeNull();
    expect(readAttempt({ ...attempt, route: 'wire' })).toBeNull();
    expect(readAttempt('key-1')).toBeNull();
  });

  it("keeps the card's BIN, and reads an attempt stored before the BIN was kept as having none", () => {
    const carded = newAttempt(cardRequest(), {
      key: 'key-2',
      nonce: 'n',
      bin: '411111',
      now: 1000,
    });
    expect(readAttempt(JSON.parse(JSON.stringify(carded)))?.bin).toBe('411111');
    const { bin: _dropped, ...older } = carded;
    expect(readAttempt(JSON.parse(JSON.stringify(older)))).toEqual({ ...carded, bin: null });
  });

  it('uses its key for the first call and the derived key after 3-D Secure', () => {
    expect(idempotencyKeyOf(attempt)).toBe('key-1');
    expect(idempotencyKeyOf({ ...attempt, step: 'authenticated' })).toBe('key-1:3ds');
  });

  it('goes stale after a day, or when the clock says it started in the future', () => {
    expect(isStale(attempt, 1000 + ATTEMPT_MAX_AGE_MS)).toBe(false);
    expect(isStale(attempt, 1001 + ATTEMPT_MAX_AGE_MS)).toBe(true);
    expect(isStale(attempt, 999)).toBe(true);
  });
});

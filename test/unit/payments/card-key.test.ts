import { describe, expect, it } from 'vitest';
import { governorCardKey } from '../../../worker/purchase-ledger/ledger';

/**
 * The retry governor's card key (worker/purchase-ledger/ledger.ts governorCardKey): a live card is one card
 * whoever pays with it, as the networks count it; a test card and a card no source knows are
 * the payer's own.
 */
describe('governorCardKey', () => {
  it('a live card is one key across payers', async () => {
    expect(await governorCardKey('account-1', 'Xt5EWLLDS7FJjR1c')).toBe(
      await governorCardKey('account-2', 'Xt5EWLLDS7FJjR1c'),
    );
    expect(await governorCardKey('account-1', 'Xt5EWLLDS7FJjR1c')).not.toBe(
      await governorCardKey('account-1', 'Yt5EWLLDS7FJjR1c'),
    );
  });

  it('a test card and an unknown card are each payer’s own', async () => {
    expect(await governorCardKey('account-1', 'Xt5EWLLDS7FJjR1c', true)).not.toBe(
      await governorCardKey('account-2', 'Xt5EWLLDS7FJjR1c', true),
    );
    expect(await governorCardKey('account-1', 'Xt5EWLLDS7FJjR1c', true)).not.toBe(
      await governorCardKey('account-1', 'Xt5EWLLDS7FJjR1c'),
    );
    expect(await governorCardKey('account-1', null)).not.toBe(
      await governorCardKey('account-2', null),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { purchase } from '../../../islands/payments/purchase';
import {
  otherProviderOffered,
  type ProviderPin,
  pinAfterProviderFailure,
} from '../../../worker/provider-routing/provider-pin';
import {
  closeDue,
  FAILOVER_AFTER_MS,
  type KeptAttempt,
} from '../../../worker/provider-routing/stuck-attempt';
import { cardRequest, httpFailure, networkFailure, world } from './fakes';

/**
 * docs/payments.md "A visitor already paying when the provider fails": when the worker closes an
 * attempt its provider keeps failing, and what the page does with the answer.
 */

const stuck: KeptAttempt = {
  provider: 'stripe',
  waitedMs: 1_000,
  outcome: 'TECH_UNKNOWN',
  challenged: false,
  pollingId: null,
};
const healthy = { failing: false };
const failing = { failing: true };

describe('closing an attempt its provider keeps failing', () => {
  it('closes one that may have charged once its provider fails, or after FAILOVER_AFTER_MS', () => {
    expect(closeDue(stuck, failing)).toBe(true);
    expect(closeDue(stuck, healthy)).toBe(false);
    expect(closeDue({ ...stuck, waitedMs: FAILOVER_AFTER_MS - 1 }, healthy)).toBe(false);
    expect(closeDue({ ...stuck, waitedMs: FAILOVER_AFTER_MS }, healthy)).toBe(true);
  });

  it('leaves alone an attempt in flight, answered, with a polling id, or after 3-D Secure', () => {
    for (const outcome of [null, 'APPROVED', 'SOFT_ROUTE', 'TECH_NOT_SENT'] as const) {
      expect(closeDue({ ...stuck, outcome }, failing), String(outcome)).toBe(false);
    }
    // A polling id is reconciled by its result (the ledger's own reconcile), not closed.
    expect(closeDue({ ...stuck, pollingId: 'poll_1' }, failing)).toBe(false);
    expect(closeDue({ ...stuck, challenged: true }, failing)).toBe(false);
  });

  it('offers the other provider only on a pin not closed, on the failed one, the other usable and well', () => {
    const pin: ProviderPin = { provider: 'stripe', cascade: 'none' };
    const well = { usable: true, failing: false };
    const offered = pinAfterProviderFailure(pin, 'stripe', well);
    expect(offered).toEqual({ provider: 'stripe', cascade: 'offered' });
    expect(otherProviderOffered(offered)).toBe('braintree');
    expect(pinAfterProviderFailure(offered, 'stripe', well)).toBe(offered);
    expect(pinAfterProviderFailure(pin, 'stripe', { usable: true, failing: true })).toBe(pin);
    expect(pinAfterProviderFailure(pin, 'stripe', { usable: false, failing: false })).toBe(pin);
    // Moved once already (after a decline or an outage), now failing there: the first one back.
    const moved: ProviderPin = { provider: 'braintree', cascade: 'used' };
    expect(otherProviderOffered(pinAfterProviderFailure(moved, 'braintree', well))).toBe('stripe');
    // A closed move, or the pin naming the other provider: no offer.
    for (const other of [
      { provider: 'braintree', cascade: 'used' },
      { provider: 'stripe', cascade: 'closed' },
      { provider: 'braintree', cascade: 'none' },
    ] as const) {
      expect(pinAfterProviderFailure(other, 'stripe', well)).toBe(other);
    }
    expect(pinAfterProviderFailure(null, 'stripe', well)).toBeNull();
  });
});

const closedBody = (code: string) => ({ errors: { messages: ['closed'] }, code });

describe('the page, told its attempt was closed unpaid', () => {
  it('ends the attempt with the offer, although its POST may have been sent before', async () => {
    const { deps, portal, attempts } = world({
      script: {
        start: async (_call, index) => {
          if (index < 3) throw networkFailure();
          throw httpFailure(424, closedBody('provider_failed_other_offered'));
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_provider_failed_offer' },
      otherProvider: true,
    });
    expect(portal.posts).toHaveLength(4);
    expect(new Set(portal.posts.map((post) => post.key)).size).toBe(1);
    expect(attempts.storage.attempt).toBeNull();
  });

  it('ends it without an offer when the worker has none to make', async () => {
    const { deps } = world({
      script: {
        start: async (_call, index) => {
          if (index === 0) throw httpFailure(500, null);
          throw httpFailure(424, closedBody('provider_failed_not_charged'));
        },
      },
    });
    expect(await purchase(cardRequest(), deps)).toEqual({
      kind: 'failed',
      text: { key: 'payment_provider_failed' },
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SubscriptionEvent } from '../../../worker/lifecycle/apply';
import {
  countedIn,
  fitRefusal,
  type SubscriptionMoney,
} from '../../../worker/lifecycle/subscription-fit';

const event = (kind: SubscriptionEvent['kind'], amountMinor: number, currency: string | null) =>
  ({ eventId: 'evt', subscriptionId: 'sub', kind, amountMinor, currency, at: 0 }) as const;

describe('fitRefusal over any sequence of events (property)', () => {
  it('never lets what went back pass what was paid, nor money in another currency', () => {
    const anEvent = fc.record({
      kind: fc.constantFrom('renewal', 'refund', 'chargeback', 'cancellation' as const),
      minor: fc.integer({ min: 0, max: 10_000 }),
      currency: fc.constantFrom('USD', 'EUR'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.array(anEvent), (paid, events) => {
        let money: SubscriptionMoney = { currency: 'USD', paidMinor: paid, returnedMinor: 0 };
        let renewed = 0;
        for (const { kind, minor, currency } of events) {
          const sign = kind === 'renewal' ? 1 : kind === 'cancellation' ? 0 : -1;
          const candidate = event(kind, sign * minor, kind === 'cancellation' ? null : currency);
          if (fitRefusal(candidate, money) !== null) continue;
          if (kind !== 'cancellation') expect(currency).toBe('USD');
          if (kind === 'renewal') renewed += minor;
          money = countedIn(money, candidate);
          expect(money.returnedMinor).toBeLessThanOrEqual(paid + renewed);
          expect(money.paidMinor).toBe(paid + renewed);
        }
      }),
    );
  });

  it('taking a counted event back out leaves the money as it was', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5000, max: 5000 }), (amountMinor) => {
        const money = { currency: 'USD', paidMinor: 5000, returnedMinor: 100 };
        expect(countedIn(countedIn(money, { amountMinor }), { amountMinor }, -1)).toEqual(money);
      }),
    );
  });
});

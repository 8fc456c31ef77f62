import { describe, expect, it } from 'vitest';
import type { ChargeOutcome, ChargeProvider } from '../../../shared/charge-outcome';
import {
  admitToLedger,
  type LedgerAdmission,
  MAX_ATTEMPTS_PER_PURCHASE,
  type PurchaseLedger,
  settleInLedger,
  withdrawFromLedger,
} from '../../../worker/purchase-ledger/ledger';

/**
 * The attempt ledger of one purchase (worker/purchase-ledger/ledger.ts), rule by rule; the
 * 100,000-purchase simulation (./one-charge-simulation.test.ts) runs it under random faults.
 */

const EMPTY: PurchaseLedger = { purchaseId: 'pur_1', attempts: [] };

function allowed(admission: LedgerAdmission): PurchaseLedger {
  if (!admission.allowed) throw new Error(`refused: ${admission.reason}`);
  return admission.ledger;
}

/** The ledger after attempts `id` on `provider` with `card`, each ending as given. */
function history(...steps: [string, ChargeProvider, string | null, ChargeOutcome | null][]) {
  let ledger = EMPTY;
  for (const [id, provider, card, outcome] of steps) {
    ledger = allowed(admitToLedger(ledger, { id, provider, card, at: 0 }));
    if (outcome) {
      const challenged = outcome === 'AUTH_REQUIRED';
      ledger = settleInLedger(ledger, id, { reading: { outcome, advised: false }, challenged });
    }
  }
  return ledger;
}

const next = (ledger: PurchaseLedger, id: string, provider: ChargeProvider, card: string | null) =>
  admitToLedger(ledger, { id, provider, card, at: 1 });

const reason = (admission: LedgerAdmission) => (admission.allowed ? 'allowed' : admission.reason);

describe('admitToLedger', () => {
  it('lets the same attempt be sent again, counted once, and never on the other provider', () => {
    const ledger = history(['a', 'stripe', 'c1', null]);
    expect(next(ledger, 'a', 'stripe', 'c1')).toEqual({ allowed: true, ledger, resend: true });
    expect(reason(next(ledger, 'a', 'braintree', 'c1'))).toBe('provider_not_allowed');
  });

  it('refuses a new attempt while one is unknown, and any after a charge', () => {
    expect(reason(next(history(['a', 'stripe', 'c1', null]), 'b', 'braintree', 'c2'))).toBe(
      'purchase_confirming',
    );
    const timedOut = history(['a', 'stripe', 'c1', 'TECH_UNKNOWN']);
    const refused = next(timedOut, 'b', 'stripe', 'c1');
    expect(refused).toMatchObject({ allowed: false, unsettled: { id: 'a' } });
    expect(reason(next(history(['a', 'stripe', 'c1', 'APPROVED']), 'b', 'stripe', 'c2'))).toBe(
      'purchase_charged',
    );
  });

  it('stops a hard-declined card on both providers; another card goes on', () => {
    const ledger = history(['a', 'stripe', 'c1', 'HARD']);
    expect(reason(next(ledger, 'b', 'braintree', 'c1'))).toBe('card_stopped');
    expect(reason(next(ledger, 'b', 'stripe', 'c1'))).toBe('card_stopped');
    expect(reason(next(ledger, 'b', 'braintree', 'c2'))).toBe('allowed');
  });

  it('sends a card to the other provider once, and not after 3-D Secure', () => {
    const routed = history(
      ['a', 'stripe', 'c1', 'SOFT_ROUTE'],
      ['b', 'braintree', 'c1', 'SOFT_ROUTE'],
    );
    expect(reason(next(routed, 'c', 'stripe', 'c1'))).toBe('provider_not_allowed');
    expect(reason(next(routed, 'c', 'braintree', 'c1'))).toBe('allowed');
    const challenged = history(['a', 'stripe', 'c1', 'AUTH_REQUIRED']);
    expect(reason(next(challenged, 'b', 'braintree', 'c1'))).toBe('provider_not_allowed');
    expect(reason(next(challenged, 'b', 'stripe', 'c1'))).toBe('allowed');
  });

  it('keeps no card chain for a card it cannot tell', () => {
    const ledger = history(['a', 'braintree', null, 'HARD']);
    expect(reason(next(ledger, 'b', 'braintree', null))).toBe('allowed');
  });

  it(`refuses past ${MAX_ATTEMPTS_PER_PURCHASE} attempts`, () => {
    const steps = Array.from({ length: MAX_ATTEMPTS_PER_PURCHASE }, (_, n) => [
      `k${n}`,
      'stripe',
      `card${n}`,
      'SOFT_LATER',
    ]) as [string, ChargeProvider, string, ChargeOutcome][];
    expect(reason(next(history(...steps), 'last', 'stripe', 'new'))).toBe(
      'purchase_attempts_spent',
    );
  });
});

describe('settleInLedger and withdrawFromLedger', () => {
  const outcomeOf = (ledger: PurchaseLedger) => ledger.attempts[0]?.outcome;
  const unknown = { reading: { outcome: 'TECH_UNKNOWN', advised: false } } as const;

  it('never undoes an approval, nor a decline by a later timeout', () => {
    expect(outcomeOf(settleInLedger(history(['a', 'stripe', 'c', 'APPROVED']), 'a', unknown))).toBe(
      'APPROVED',
    );
    expect(
      outcomeOf(settleInLedger(history(['a', 'stripe', 'c', 'SOFT_LATER']), 'a', unknown)),
    ).toBe('SOFT_LATER');
  });

  it('holds the call after a 3-D Secure challenge as unknown until it answers', () => {
    const challenged = history(['a', 'stripe', 'c', 'AUTH_REQUIRED']);
    const resent = allowed(next(challenged, 'a', 'stripe', 'c'));
    expect(outcomeOf(resent)).toBeNull();
    expect(outcomeOf(settleInLedger(resent, 'a', unknown))).toBe('TECH_UNKNOWN');
    expect(resent.attempts[0]?.challenged).toBe(true);
  });

  it('takes back only an attempt never answered', () => {
    expect(withdrawFromLedger(history(['a', 'stripe', 'c', null]), 'a').attempts).toEqual([]);
    expect(
      withdrawFromLedger(history(['a', 'stripe', 'c', 'SOFT_LATER']), 'a').attempts,
    ).toHaveLength(1);
  });
});

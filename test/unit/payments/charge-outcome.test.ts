import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHARGE_OUTCOMES,
  chargeOutcomeOf,
  isChargeOutcome,
  MASTERCARD_NEVER_ADVICE,
  VISA_NEVER_CODES,
} from '../../../shared/charge-outcome';
import { BRAINTREE_ANSWERS, STRIPE_ANSWERS, UNANSWERED } from '../../fixtures/charge-answers';

/**
 * A charge attempt's outcome, read from what the card provider answered (docs/payments.md,
 * "What a failed charge allows next"): the golden answers of test/fixtures/charge-answers.ts, and the network's never-again
 * codes beating whatever else an answer says.
 */

describe('chargeOutcomeOf, golden answers', () => {
  it.each([...STRIPE_ANSWERS, ...BRAINTREE_ANSWERS, ...UNANSWERED].map((f) => [f.name, f]))(
    '%s',
    (_name, { answer, outcome, advised = false }) => {
      expect(chargeOutcomeOf(answer)).toEqual({ outcome, advised });
    },
  );

  it('the fixtures cover every outcome', () => {
    const seen = new Set([...STRIPE_ANSWERS, ...BRAINTREE_ANSWERS].map((f) => f.outcome));
    expect([...seen].sort()).toEqual([...CHARGE_OUTCOMES].sort());
  });
});

/** Decline codes of every kind, soft ones first, that the network's word must beat. */
const STRIPE_CODES = [
  'insufficient_funds',
  'do_not_honor',
  'generic_decline',
  'processing_error',
  'authentication_required',
  'try_again_later',
  'card_declined',
  'fraudulent',
];
const STRIPE_ADVICE = [null, 'try_again_later', 'confirm_card_data', 'do_not_try_again'];
const STRIPE_STATUSES = [null, 'requires_payment_method', 'requires_action', 'processing'];
const BRAINTREE_CODES = ['2000', '2001', '2038', '2046', '2099', '3000', '1000x', null];
const BRAINTREE_TYPES = [null, 'soft_declined', 'hard_declined'];
const BRAINTREE_STATUSES = [null, 'processor_declined', 'failed', 'gateway_rejected'];
const REJECTIONS = [null, 'three_d_secure', 'duplicate', 'fraud', 'token_issuance'];

/** A Stripe decline with the given network codes and anything else beside them. */
const stripeDeclines = (network: {
  network_decline_code?: fc.Arbitrary<string | null>;
  network_advice_code?: fc.Arbitrary<string | null>;
}) =>
  fc.record({
    kind: fc.constant('stripe' as const),
    status: fc.constantFrom(...STRIPE_STATUSES),
    error: fc.record({
      type: fc.constantFrom('card_error', 'api_error', 'invalid_request_error'),
      code: fc.constantFrom(...STRIPE_CODES, null),
      decline_code: fc.constantFrom(...STRIPE_CODES, null),
      advice_code: fc.constantFrom(...STRIPE_ADVICE),
      network_decline_code: network.network_decline_code ?? fc.constantFrom(null, '05', '51'),
      network_advice_code:
        network.network_advice_code ?? fc.constantFrom(null, '01', '02', '04', '24'),
    }),
  });

/** A Braintree decline with the given network codes and anything else beside them. */
const braintreeDeclines = (network: {
  networkResponseCode?: fc.Arbitrary<string | null>;
  merchantAdviceCode?: fc.Arbitrary<string | null>;
}) =>
  fc.record({
    kind: fc.constant('braintree' as const),
    status: fc.constantFrom(...BRAINTREE_STATUSES),
    processorResponseCode: fc.constantFrom(...BRAINTREE_CODES),
    processorResponseType: fc.constantFrom(...BRAINTREE_TYPES),
    gatewayRejectionReason: fc.constantFrom(...REJECTIONS),
    networkResponseCode: network.networkResponseCode ?? fc.constantFrom(null, '05', '51'),
    merchantAdviceCode: network.merchantAdviceCode ?? fc.constantFrom(null, '02', '04', '24'),
  });

/** A code as it may arrive: its case and spacing vary. */
const asSent = (codes: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...codes), fc.boolean(), fc.constantFrom('', ' '))
    .map(([code, lower, pad]) => `${pad}${lower ? code.toLowerCase() : code}${pad}`);

describe("the network's never-again codes", () => {
  it.each(VISA_NEVER_CODES)(
    'Visa %s is HARD whatever Stripe or Braintree says beside it',
    (code) => {
      fc.assert(
        fc.property(
          stripeDeclines({ network_decline_code: fc.constant(code) }),
          braintreeDeclines({ networkResponseCode: fc.constant(code) }),
          (stripe, braintree) => {
            expect(chargeOutcomeOf(stripe).outcome).toBe('HARD');
            expect(chargeOutcomeOf(braintree).outcome).toBe('HARD');
          },
        ),
        { numRuns: 200 },
      );
    },
  );

  it.each(MASTERCARD_NEVER_ADVICE)('Mastercard advice %s is HARD whatever else is said', (code) => {
    fc.assert(
      fc.property(
        stripeDeclines({ network_advice_code: fc.constant(code) }),
        braintreeDeclines({ merchantAdviceCode: fc.constant(code) }),
        (stripe, braintree) => {
          expect(chargeOutcomeOf(stripe)).toEqual({ outcome: 'HARD', advised: true });
          expect(chargeOutcomeOf(braintree)).toEqual({ outcome: 'HARD', advised: true });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('are read whatever their case and spacing', () => {
    fc.assert(
      fc.property(asSent(VISA_NEVER_CODES), asSent(MASTERCARD_NEVER_ADVICE), (visa, mastercard) => {
        const decline = { type: 'card_error', decline_code: 'insufficient_funds' };
        expect(
          chargeOutcomeOf({ kind: 'stripe', error: { ...decline, network_decline_code: visa } })
            .outcome,
        ).toBe('HARD');
        expect(
          chargeOutcomeOf({
            kind: 'stripe',
            error: { ...decline, network_advice_code: mastercard },
          }).outcome,
        ).toBe('HARD');
      }),
    );
  });

  it('never turn an approval into a decline: money taken is APPROVED', () => {
    for (const code of VISA_NEVER_CODES) {
      const braintree = {
        kind: 'braintree',
        status: 'settled',
        networkResponseCode: code,
      } as const;
      expect(chargeOutcomeOf(braintree).outcome).toBe('APPROVED');
      const stripe = {
        kind: 'stripe',
        status: 'succeeded',
        error: { network_decline_code: code },
      } as const;
      expect(chargeOutcomeOf(stripe).outcome).toBe('APPROVED');
    }
  });
});

describe('chargeOutcomeOf, what no table knows', () => {
  it('a Stripe error of a type it does not know may have charged', () => {
    expect(chargeOutcomeOf({ kind: 'stripe', error: { type: 'new_error_type' } }).outcome).toBe(
      'TECH_UNKNOWN',
    );
    expect(chargeOutcomeOf({ kind: 'stripe' }).outcome).toBe('TECH_UNKNOWN');
    // A decline code no table knows is still the issuer's decline, whatever the type says.
    expect(chargeOutcomeOf({ kind: 'stripe', error: { decline_code: 'new_reason' } }).outcome).toBe(
      'SOFT_ROUTE',
    );
  });

  it('a Braintree answer without status or code may have charged; an odd rejection stops', () => {
    expect(chargeOutcomeOf({ kind: 'braintree', status: 'authorizing' }).outcome).toBe(
      'TECH_UNKNOWN',
    );
    expect(chargeOutcomeOf({ kind: 'braintree', status: 'voided' }).outcome).toBe('TECH_UNKNOWN');
    // Approved by its code but not by its status: ask which it was.
    const contradiction = {
      kind: 'braintree',
      status: 'processor_declined',
      processorResponseCode: '1000',
    } as const;
    expect(chargeOutcomeOf(contradiction).outcome).toBe('TECH_UNKNOWN');
    expect(chargeOutcomeOf({ kind: 'braintree', status: 'gateway_rejected' }).outcome).toBe('HARD');
    expect(
      chargeOutcomeOf({
        kind: 'braintree',
        status: 'gateway_rejected',
        gatewayRejectionReason: 'prepaid',
      }).outcome,
    ).toBe('HARD');
  });

  it('reads only its own outcomes back from a ledger', () => {
    for (const outcome of CHARGE_OUTCOMES) expect(isChargeOutcome(outcome)).toBe(true);
    for (const forged of ['approved', 'HARD ', 'toString', '', null]) {
      expect(isChargeOutcome(forged)).toBe(false);
    }
  });
});

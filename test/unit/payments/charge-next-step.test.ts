import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChargeAttempt,
  type ChargeAttempts,
  type ChargeNextStep,
  type ChargePurchase,
  nextChargeStep,
} from '../../../shared/charge-next-step';
import {
  CHARGE_OUTCOMES,
  type ChargeOutcome,
  type ChargeProvider,
  chargeOutcomeOf,
} from '../../../shared/charge-outcome';
import {
  BRAINTREE_ANSWERS,
  type ChargeAnswerFixture,
  STRIPE_ANSWERS,
  UNANSWERED,
} from '../../fixtures/charge-answers';

/**
 * What a purchase's attempts so far allow next (the cascade rule, docs/payments.md):
 * examples of each step, then properties over any history of attempts and over simulated
 * purchases driven by the golden answers.
 */

const BOTH: ChargePurchase = { initiator: 'customer', providers: ['stripe', 'braintree'] };
const RENEWAL: ChargePurchase = { initiator: 'merchant', providers: ['stripe', 'braintree'] };

const attempt = (outcome: ChargeOutcome, more: Partial<ChargeAttempt> = {}): ChargeAttempt => ({
  provider: 'stripe',
  outcome,
  advised: false,
  challenged: false,
  ...more,
});

const stepOf = (purchase: ChargePurchase, ...attempts: ChargeAttempts) =>
  nextChargeStep(attempts, purchase);

describe('nextChargeStep, one attempt at a checkout', () => {
  it.each<[ChargeOutcome, ChargeNextStep]>([
    ['APPROVED', { step: 'done' }],
    ['HARD', { step: 'stop', ask: 'another_card' }],
    ['RISK_BLOCK', { step: 'stop', ask: 'another_card' }],
    ['SOFT_LATER', { step: 'later', provider: 'stripe' }],
    ['SOFT_ROUTE', { step: 'other_provider', provider: 'braintree' }],
    ['AUTH_REQUIRED', { step: 'step_up', provider: 'stripe' }],
    ['TECH_NOT_SENT', { step: 'other_provider', provider: 'braintree' }],
    ['TECH_UNKNOWN', { step: 'reconcile', provider: 'stripe' }],
  ])('%s allows %o', (outcome, step) => {
    expect(stepOf(BOTH, attempt(outcome))).toEqual(step);
  });

  it('a timeout reconciled goes on as the provider says', () => {
    expect(stepOf(BOTH, attempt('TECH_UNKNOWN', { reconciled: 'charged' }))).toEqual({
      step: 'done',
    });
    expect(stepOf(BOTH, attempt('TECH_UNKNOWN', { reconciled: 'not_charged' }))).toEqual({
      step: 'other_provider',
      provider: 'braintree',
    });
  });

  it('with one provider configured, a routable decline waits for later on it', () => {
    const alone: ChargePurchase = { initiator: 'customer', providers: ['stripe'] };
    expect(stepOf(alone, attempt('SOFT_ROUTE'))).toEqual({ step: 'later', provider: 'stripe' });
    expect(stepOf(alone, attempt('TECH_NOT_SENT'))).toEqual({ step: 'later', provider: 'stripe' });
  });
});

describe('nextChargeStep, over a purchase', () => {
  it('goes to the other provider once: a second routable decline waits for later', () => {
    const crossed = attempt('SOFT_ROUTE', { provider: 'braintree' });
    expect(stepOf(BOTH, attempt('SOFT_ROUTE'), crossed)).toEqual({
      step: 'later',
      provider: 'braintree',
    });
    const back = attempt('TECH_NOT_SENT', { provider: 'stripe' });
    expect(stepOf(BOTH, attempt('SOFT_ROUTE'), crossed, back)).toEqual({
      step: 'later',
      provider: 'stripe',
    });
  });

  it('never goes to the other provider after a 3-D Secure challenge', () => {
    const challenged = attempt('SOFT_ROUTE', { challenged: true });
    expect(stepOf(BOTH, attempt('AUTH_REQUIRED'), challenged)).toEqual({
      step: 'later',
      provider: 'stripe',
    });
    expect(
      stepOf(BOTH, attempt('AUTH_REQUIRED', { challenged: true }), attempt('TECH_NOT_SENT')),
    ).toEqual({
      step: 'later',
      provider: 'stripe',
    });
  });

  it('reconciles a timeout before anything, and a charge anywhere ends it', () => {
    const lost = attempt('TECH_UNKNOWN', { provider: 'braintree' });
    expect(stepOf(BOTH, attempt('SOFT_ROUTE'), lost)).toEqual({
      step: 'reconcile',
      provider: 'braintree',
    });
    expect(stepOf(BOTH, attempt('APPROVED'), attempt('HARD'))).toEqual({ step: 'done' });
  });

  it('a HARD on any attempt stops the card on every provider', () => {
    expect(stepOf(BOTH, attempt('HARD'), attempt('SOFT_LATER'))).toEqual({
      step: 'stop',
      ask: 'another_card',
    });
  });
});

describe('nextChargeStep, a renewal made without the subscriber', () => {
  it('asks them back to authenticate instead of stepping up', () => {
    expect(stepOf(RENEWAL, attempt('AUTH_REQUIRED'))).toEqual({
      step: 'stop',
      ask: 'authenticate',
    });
  });

  it('retries a decline only when the issuer or network advised (Cybersource default)', () => {
    expect(stepOf(RENEWAL, attempt('SOFT_LATER'))).toEqual({ step: 'stop', ask: 'another_card' });
    expect(stepOf(RENEWAL, attempt('SOFT_ROUTE'))).toEqual({ step: 'stop', ask: 'another_card' });
    expect(stepOf(RENEWAL, attempt('SOFT_LATER', { advised: true }))).toEqual({
      step: 'later',
      provider: 'stripe',
    });
    expect(stepOf(RENEWAL, attempt('SOFT_ROUTE', { advised: true }))).toEqual({
      step: 'other_provider',
      provider: 'braintree',
    });
  });

  it('defers what never reached the network, advice or not', () => {
    expect(stepOf(RENEWAL, attempt('TECH_NOT_SENT'))).toEqual({
      step: 'other_provider',
      provider: 'braintree',
    });
  });
});

// --- properties ------------------------------------------------------------------------------

const providers = fc.constantFrom<ChargeProvider>('stripe', 'braintree');
const purchases = fc.record({
  initiator: fc.constantFrom<ChargePurchase['initiator']>('customer', 'merchant'),
  providers: fc.subarray<ChargeProvider>(['stripe', 'braintree']),
});
const attempts = fc.record({
  provider: providers,
  outcome: fc.constantFrom(...CHARGE_OUTCOMES),
  advised: fc.boolean(),
  challenged: fc.boolean(),
  reconciled: fc.constantFrom(null, 'charged' as const, 'not_charged' as const),
});
const histories = fc
  .array(attempts, { minLength: 1, maxLength: 6 })
  .map((list) => list as unknown as ChargeAttempts);

/** The steps that lead to another charge attempt. */
const ATTEMPTS: ReadonlySet<ChargeNextStep['step']> = new Set([
  'other_provider',
  'step_up',
  'later',
]);
const crossings = (list: readonly ChargeAttempt[]) =>
  list.filter((each, index) => index > 0 && each.provider !== list[index - 1]?.provider).length;

describe('nextChargeStep, any history', () => {
  it('after a HARD or RISK_BLOCK, never another attempt on any provider', () => {
    fc.assert(
      fc.property(histories, purchases, (history, purchase) => {
        fc.pre(history.some((each) => each.outcome === 'HARD' || each.outcome === 'RISK_BLOCK'));
        expect(ATTEMPTS.has(nextChargeStep(history, purchase).step)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('never a second cross-provider attempt, never one after a challenge, never to itself', () => {
    fc.assert(
      fc.property(histories, purchases, (history, purchase) => {
        const next = nextChargeStep(history, purchase);
        if (next.step !== 'other_provider') return;
        expect(crossings(history)).toBe(0);
        expect(history.some((each) => each.challenged)).toBe(false);
        expect(next.provider).not.toBe(history[0].provider);
        expect(purchase.providers).toContain(next.provider);
      }),
      { numRuns: 2000 },
    );
  });

  it('never another attempt while one may have charged', () => {
    fc.assert(
      fc.property(histories, purchases, (history, purchase) => {
        const step = nextChargeStep(history, purchase).step;
        const maybeCharged = history.some(
          (each) =>
            each.outcome === 'APPROVED' ||
            (each.outcome === 'TECH_UNKNOWN' && each.reconciled !== 'not_charged'),
        );
        if (maybeCharged) expect(ATTEMPTS.has(step)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

/** Every golden answer, to drive simulated purchases with. */
const ANSWERS: readonly ChargeAnswerFixture[] = [
  ...STRIPE_ANSWERS,
  ...BRAINTREE_ANSWERS,
  ...UNANSWERED,
];

/**
 * A purchase run to its end: each attempt answered by a golden answer the run picks, read by
 * chargeOutcomeOf, stepped by nextChargeStep; a step up shows a challenge, a reconcile finds
 * what the run picks. Returns the attempts and the steps taken.
 */
function simulate(purchase: ChargePurchase, picks: readonly number[]) {
  const history: ChargeAttempt[] = [];
  const steps: ChargeNextStep[] = [];
  let provider: ChargeProvider = purchase.providers[0] ?? 'stripe';
  let challenged = false;
  for (const pick of picks) {
    const { outcome, advised } = chargeOutcomeOf(
      (ANSWERS[pick % ANSWERS.length] as ChargeAnswerFixture).answer,
    );
    history.push({ provider, outcome, advised, challenged });
    let next = nextChargeStep(history as unknown as ChargeAttempts, purchase);
    if (next.step === 'reconcile') {
      const last = history.find((each) => each.outcome === 'TECH_UNKNOWN' && !each.reconciled);
      if (last) last.reconciled = pick % 2 === 0 ? 'not_charged' : 'charged';
      next = nextChargeStep(history as unknown as ChargeAttempts, purchase);
    }
    steps.push(next);
    if (!ATTEMPTS.has(next.step) || !('provider' in next)) break;
    provider = next.provider;
    challenged = next.step === 'step_up';
  }
  return { history, steps };
}

describe('nextChargeStep, simulated purchases over the golden answers', () => {
  it('cross providers at most once, never after a challenge, a HARD or a RISK_BLOCK', () => {
    fc.assert(
      fc.property(
        purchases.filter((purchase) => purchase.providers.length > 0),
        fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
        (purchase, picks) => {
          const { history } = simulate(purchase, picks);
          expect(crossings(history)).toBeLessThanOrEqual(1);
          history.forEach((each, index) => {
            const before = history.slice(0, index);
            if (index > 0 && each.provider !== history[index - 1]?.provider) {
              expect(before.some((earlier) => earlier.challenged)).toBe(false);
            }
            expect(
              before.some(
                (earlier) => earlier.outcome === 'HARD' || earlier.outcome === 'RISK_BLOCK',
              ),
            ).toBe(false);
            expect(
              before.some(
                (earlier) => earlier.outcome === 'APPROVED' || earlier.reconciled === 'charged',
              ),
            ).toBe(false);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { buildExperimentResults } from '../../../worker/experiments/answer/experiment-answer';
import { experimentDesign } from '../../../worker/experiments/design/experiment-design';
import type { ExperimentPhaseRows } from '../../../worker/experiments/store/phase-rows';
import type {
  SaveOfferMoneyRow,
  SaveOfferReasonRow,
  SaveOfferRow,
} from '../../../worker/experiments/store/save-offer-statements';
import { saveOfferTest } from '../../fixtures/save-offer-test';

/**
 * A save offer test's results (worker/experiments/results/save-offer-answer.ts): the
 * subscriptions shown the offer are its exposed, and "kept" (shown and not cancelled) is judged
 * as a conversion against the control's; net revenue since the offer per shown subscription is
 * judged per currency as a mean.
 */

const SAVE_TEST = saveOfferTest();

interface Extra {
  reasons?: SaveOfferReasonRow[];
  money?: SaveOfferMoneyRow[];
}

function rowsOf(saveOffers: SaveOfferRow[], extra: Extra = {}): ExperimentPhaseRows {
  return {
    arms: [],
    revenue: [],
    days: [],
    dayRevenue: [],
    netRevenue: [],
    dayNetRevenue: [],
    segments: [],
    vitals: [],
    dayVitals: [],
    declines: [],
    errors: [],
    lifecycle: [],
    recovered: [],
    saveOffers,
    saveOfferReasons: extra.reasons ?? [],
    saveOfferMoney: extra.money ?? [],
    strata: [],
    strataRevenue: [],
  };
}

function answerOf(experiment: ExperimentDocument, saveOffers: SaveOfferRow[], extra: Extra = {}) {
  return buildExperimentResults({
    design: experimentDesign('save-half', experiment, new Map()),
    rows: rowsOf(saveOffers, extra),
    phase: 1,
    phases: [1],
    configVersion: 'v1+v1',
    now: Date.parse('2026-11-28T12:00:00Z'),
    routeVisits: null,
  });
}

const arm = (
  variant: string,
  shown: number,
  cancelled: number,
  chose_keep = 0,
  took_action = 0,
): SaveOfferRow => ({ variant, shown, chose_keep, took_action, cancelled });

/** An arm's money in one currency: `paying` subscriptions paid `each` minor units apiece. */
const money = (
  variant: string,
  currency: string,
  paying: number,
  each: number,
): SaveOfferMoneyRow => ({
  variant,
  currency,
  paying,
  net_minor: paying * each,
  net_squares: paying * each * each,
});

describe('a save offer test’s results', () => {
  it('counts the shown as exposed and judges the keep rate against the control', () => {
    const answer = answerOf(SAVE_TEST, [
      arm('control', 2000, 1400, 300),
      arm('half', 2000, 1000, 700),
    ]);
    const [control, half] = answer.variants;
    expect(answer.reach.exposed).toBe(4000);
    expect(half?.exposed).toBe(2000);
    expect(control?.saveOffer).toEqual({
      shown: 2000,
      choseKeep: 300,
      tookAction: 0,
      cancelled: 1400,
      kept: { count: 600, rate: 0.3, relativeLift: null, relativeInterval: null, verdict: null },
      reasons: [],
      netRevenue: [],
    });
    expect(half?.saveOffer).toMatchObject({ shown: 2000, choseKeep: 700, cancelled: 1000 });
    expect(half?.saveOffer?.kept).toMatchObject({ count: 1000, rate: 0.5, verdict: 'better' });
    expect(half?.saveOffer?.kept.relativeLift).toBeCloseTo(2 / 3);
    const interval = half?.saveOffer?.kept.relativeInterval;
    expect(interval?.lower).toBeGreaterThan(0);
    expect(interval?.upper).toBeGreaterThan(2 / 3);
  });

  it('judges net revenue per shown subscription in each currency, and lists the reasons', () => {
    // The discount keeps 1,000 of 2,000 paying 9.99 at half price; the control keeps 600 at full.
    const answer = answerOf(
      SAVE_TEST,
      [arm('control', 2000, 1400, 300), arm('half', 2000, 1000, 100, 900)],
      {
        reasons: [
          { variant: 'half', reason: 'too_expensive', subscriptions: 300 },
          { variant: 'half', reason: 'not_using', subscriptions: 500 },
          { variant: 'control', reason: 'too_expensive', subscriptions: 900 },
        ],
        money: [
          money('control', 'USD', 600, 999),
          money('half', 'USD', 1000, 500),
          money('half', 'EUR', 3, 899),
        ],
      },
    );
    const [control, half] = answer.variants;
    expect(half?.saveOffer?.tookAction).toBe(900);
    expect(half?.saveOffer?.reasons).toEqual([
      { reason: 'not_using', count: 500 },
      { reason: 'too_expensive', count: 300 },
    ]);
    expect(control?.saveOffer?.netRevenue).toEqual([
      {
        currency: 'USD',
        amountMinor: 599_400,
        paying: 600,
        perShown: 299.7,
        relativeLift: null,
        relativeInterval: null,
        verdict: null,
      },
      {
        currency: 'EUR',
        amountMinor: 0,
        paying: 0,
        perShown: 0,
        relativeLift: null,
        relativeInterval: null,
        verdict: null,
      },
    ]);
    const [usd, eur] = half?.saveOffer?.netRevenue ?? [];
    expect(usd).toMatchObject({
      currency: 'USD',
      amountMinor: 500_000,
      paying: 1000,
      perShown: 250,
    });
    // 250 against 299.7 a shown subscription: the discount keeps more but earns less.
    expect(usd?.relativeLift).toBeCloseTo(250 / 299.7 - 1);
    expect(usd?.verdict).toBe('worse');
    expect(eur).toMatchObject({ currency: 'EUR', amountMinor: 2697, verdict: 'not_enough_data' });
  });

  it('calls an equal keep rate no difference, and few subscriptions not enough data', () => {
    const equal = answerOf(SAVE_TEST, [arm('control', 2000, 1000), arm('half', 2000, 1000)]);
    expect(equal.variants[1]?.saveOffer?.kept.verdict).toBe('no_difference_yet');
    const few = answerOf(SAVE_TEST, [arm('control', 10, 9), arm('half', 10, 1)]);
    expect(few.variants[1]?.saveOffer?.kept.verdict).toBe('not_enough_data');
  });

  it('withholds the verdict when the shown are off the shares the hash draws', () => {
    const answer = answerOf(SAVE_TEST, [arm('control', 10_000, 7000), arm('half', 11_000, 5000)]);
    expect(answer.sampleRatio.alarm).toBe(true);
    expect(answer.variants[1]?.saveOffer?.kept.verdict).toBe('withheld_srm');
  });

  it('shows no save offer block for a test of another layer', () => {
    const paywall = {
      ...SAVE_TEST,
      layer: 'paywall' as const,
      variants: {
        control: { weight: 1, change: {} },
        half: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
      },
    };
    const answer = answerOf(paywall, [arm('control', 2000, 1000)]);
    expect(answer.variants.map((variant) => variant.saveOffer)).toEqual([null, null]);
    expect(answer.reach.exposed).toBe(0);
  });
});

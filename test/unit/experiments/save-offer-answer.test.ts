import { describe, expect, it } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { buildExperimentResults } from '../../../worker/experiments/answer/experiment-answer';
import { experimentDesign } from '../../../worker/experiments/design/experiment-design';
import type { ExperimentPhaseRows } from '../../../worker/experiments/store/phase-rows';
import type { SaveOfferRow } from '../../../worker/experiments/store/save-offer-statements';
import { saveOfferTest } from '../../fixtures/save-offer-test';

/**
 * A save offer test's results (worker/experiments/results/save-offer-answer.ts): the
 * subscriptions shown the offer are its exposed, and "kept" (shown and not cancelled) is judged
 * as a conversion against the control's.
 */

const SAVE_TEST = saveOfferTest();

function rowsOf(saveOffers: SaveOfferRow[]): ExperimentPhaseRows {
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
    lifecycle: [],
    recovered: [],
    saveOffers,
    strata: [],
    strataRevenue: [],
  };
}

function answerOf(experiment: ExperimentDocument, saveOffers: SaveOfferRow[]) {
  return buildExperimentResults({
    design: experimentDesign('save-half', experiment, new Map()),
    rows: rowsOf(saveOffers),
    phase: 1,
    phases: [1],
    configVersion: 'v1+v1',
    now: Date.parse('2026-11-28T12:00:00Z'),
    routeVisits: null,
  });
}

const arm = (variant: string, shown: number, cancelled: number, chose_keep = 0): SaveOfferRow => ({
  variant,
  shown,
  chose_keep,
  cancelled,
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
      cancelled: 1400,
      kept: { count: 600, rate: 0.3, relativeLift: null, relativeInterval: null, verdict: null },
    });
    expect(half?.saveOffer).toMatchObject({ shown: 2000, choseKeep: 700, cancelled: 1000 });
    expect(half?.saveOffer?.kept).toMatchObject({ count: 1000, rate: 0.5, verdict: 'better' });
    expect(half?.saveOffer?.kept.relativeLift).toBeCloseTo(2 / 3);
    const interval = half?.saveOffer?.kept.relativeInterval;
    expect(interval?.lower).toBeGreaterThan(0);
    expect(interval?.upper).toBeGreaterThan(2 / 3);
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

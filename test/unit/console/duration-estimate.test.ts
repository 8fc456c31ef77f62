import { describe, expect, it } from 'vitest';
import {
  PRESET_DEFINITIONS,
  PRESETS,
  triggerSlotOf,
} from '../../../console/experiments/experiment-presets';
import { durationEstimate, durationText } from '../../../console/experiments/experiment-texts';
import type { RouteVisitsAnswer } from '../../../shared/console-api/routes';
import type { Slot } from '../../../shared/experiments';

/**
 * The create form's duration estimate: the traffic at the experiment's trigger on its routes
 * (first visits at the landing, the steps counted deeper), times its range and coverage, against
 * the sample every arm needs; first visits stand in, as an upper bound, where the step has no
 * count yet or the trigger is not known.
 */

/** A week: default's 7,000 first visits a day each, TikTok's 700. */
const WEEK: RouteVisitsAnswer = {
  days: 7,
  visits: { default: 7000, tiktok: 700 },
  total: 7700,
  steps: {
    default: { lookup: 3500, signup: 2100, paywall: 1400, upsell: 140 },
    tiktok: { lookup: 350, signup: 210, paywall: 140, upsell: 14 },
  },
};

/** On route default, 0.4 of the layer, 50% coverage: a fifth of its traffic enters. */
function estimateAt(trigger: Slot | null, traffic: RouteVisitsAnswer = WEEK, routes = ['default']) {
  return durationEstimate({
    ...traffic,
    trigger,
    routes,
    range: [0.3, 0.7],
    coverage: 0.5,
    arms: 2,
    plannedPerArm: 5000,
  });
}

describe('the duration estimate at the trigger', () => {
  it('at the landing: first visits a day on its routes times range and coverage', () => {
    const estimate = estimateAt('landing');
    // 1,000 a day × 0.4 × 0.5 = 200 a day; 10,000 visitors: 50 days.
    expect(estimate?.perDay).toBeCloseTo(200, 9);
    expect(estimate).toMatchObject({ days: 50, counted: 'trigger' });
    expect(durationText(estimate, 7)).toBe(
      'About 200 visitors a day reach it (first visits on its routes in the last 7 days, times its range and coverage), so it takes about 50 days. Allow longer if its audience leaves some of them out.',
    );
  });

  it('at the search and the sign-up: the lookups started on its routes', () => {
    for (const trigger of ['searching', 'signup'] as const) {
      const estimate = estimateAt(trigger);
      // 500 a day × 0.2 = 100 a day: 100 days.
      expect(estimate?.perDay).toBeCloseTo(100, 9);
      expect(estimate).toMatchObject({ days: 100, counted: 'trigger' });
    }
    expect(durationText(estimateAt('signup'), 7)).toBe(
      'About 100 visitors a day reach it (visitors who started a lookup on its routes in the last 7 days, times its range and coverage), so it takes about 100 days. The sign-up follows the lookup. An estimate: a visitor is counted each time they reach it, and its audience may leave some out, so allow longer.',
    );
    expect(durationText(estimateAt('searching'), 7)).not.toContain('sign-up');
  });

  it('at the paywall: the visitors who reached it on its routes, not on others', () => {
    const estimate = estimateAt('paywall');
    // 200 a day × 0.2 = 40 a day: 250 days.
    expect(estimate?.perDay).toBeCloseTo(40, 9);
    expect(estimate).toMatchObject({ days: 250, counted: 'trigger' });
    expect(durationText(estimate, 7)).toBe(
      'About 40 visitors a day reach it (visitors who reached the paywall on its routes in the last 7 days, times its range and coverage), so it takes about 250 days. An estimate: a visitor is counted each time they reach it, and its audience may leave some out, so allow longer.',
    );
    // Both routes' paywalls: 220 a day × 0.2 = 44 a day.
    expect(estimateAt('paywall', WEEK, ['default', 'tiktok'])?.perDay).toBeCloseTo(44, 9);
  });

  it('on every route when none is chosen', () => {
    expect(estimateAt('paywall', WEEK, [])?.perDay).toBeCloseTo(44, 9);
    expect(estimateAt('landing', WEEK, [])?.perDay).toBeCloseTo(220, 9);
  });

  it('at the upsell and the last screen: the buyers of a main plan', () => {
    for (const trigger of ['upsell', 'end'] as const) {
      const estimate = estimateAt(trigger);
      // 20 a day × 0.2 = 4 a day: 2,500 days.
      expect(estimate?.perDay).toBeCloseTo(4, 9);
      expect(estimate).toMatchObject({ days: 2500, counted: 'trigger' });
    }
    expect(durationText(estimateAt('upsell'), 7)).toBe(
      'About 4 visitors a day reach it (buyers of a main plan on its routes in the last 7 days, times its range and coverage), so it takes about 2,500 days. The upsell follows the purchase. An estimate: a visitor is counted each time they reach it, and its audience may leave some out, so allow longer.',
    );
  });

  it('falls back to first visits, an upper bound, while its step has no count on its routes', () => {
    const noPaywallYet: RouteVisitsAnswer = {
      ...WEEK,
      steps: { tiktok: { lookup: 350, signup: 210, paywall: 140, upsell: 14 } },
    };
    const estimate = estimateAt('paywall', noPaywallYet);
    expect(estimate?.perDay).toBeCloseTo(200, 9);
    expect(estimate).toMatchObject({ days: 50, counted: 'first_visits' });
    expect(durationText(estimate, 7)).toBe(
      'Nobody reached the paywall on its routes in the last 7 days, so first visits stand in. At most 200 visitors a day can reach it (first visits on its routes in the last 7 days, times its range and coverage), so it takes at least 50 days. This is an upper bound on the traffic reaching the trigger: only visitors who get to the screen where the variants differ are counted, so expect longer.',
    );
    expect(durationText(estimateAt('upsell', { ...WEEK, steps: {} }), 7)).toMatch(
      /^Nobody bought a main plan on its routes in the last 7 days, so first visits stand in\. At most 200 /,
    );
  });

  it('counts first visits, an upper bound, where the trigger is not known (a flow swap)', () => {
    const estimate = estimateAt(null);
    expect(estimate).toMatchObject({ days: 50, counted: 'first_visits' });
    expect(durationText(estimate, 7)).toBe(
      'At most 200 visitors a day can reach it (first visits on its routes in the last 7 days, times its range and coverage), so it takes at least 50 days. This is an upper bound on the traffic reaching the trigger: only visitors who get to the screen where the variants differ are counted, so expect longer.',
    );
  });

  it('gives none without traffic on its routes', () => {
    const empty: RouteVisitsAnswer = { days: 7, visits: {}, total: 0, steps: {} };
    for (const trigger of ['landing', 'paywall', null] as const) {
      expect(estimateAt(trigger, empty)).toBeNull();
      expect(estimateAt(trigger, empty, [])).toBeNull();
    }
    expect(durationText(null, 7)).toBe(
      'No first visits on these routes in the last 7 days: no estimate of the duration yet.',
    );
    // A range of nothing takes nobody.
    expect(estimateAt('landing', { ...empty, visits: { default: 0 } })).toBeNull();
    expect(
      durationEstimate({
        ...WEEK,
        trigger: 'paywall',
        routes: [],
        range: [0.5, 0.5],
        coverage: 1,
        arms: 2,
        plannedPerArm: 100,
      }),
    ).toBeNull();
  });

  it('says there is almost no traffic yet, not "0 visitors a day" and thousands of days', () => {
    // 2 first visits in 7 days, a fifth of them entering: 0.06 a day.
    const trickle: RouteVisitsAnswer = { days: 7, visits: { default: 2 }, total: 2, steps: {} };
    const estimate = estimateAt('landing', trickle);
    expect(estimate?.days).toBeGreaterThan(100_000);
    expect(durationText(estimate, 7)).toBe(
      'Almost no traffic yet: fewer than 1 visitor a day can reach it (first visits on its routes in the last 7 days, times its range and coverage), so no estimate of the duration yet.',
    );
    // At the paywall, with 3 reaching it in a week: those are what it counted.
    const paywall = estimateAt('paywall', {
      ...trickle,
      steps: { default: { lookup: 3, signup: 3, paywall: 3, upsell: 0 } },
    });
    expect(paywall?.counted).toBe('trigger');
    expect(durationText(paywall, 7)).toMatch(
      /^Almost no traffic yet: fewer than 1 visitor a day can reach it \(visitors who reached the paywall on /,
    );
    // Half a visitor a day or more is a number to show.
    expect(durationText(estimateAt('landing', { ...trickle, visits: { default: 18 } }), 7)).toMatch(
      /^About 1 visitor a day reaches it \(first visits/,
    );
  });
});

describe('the trigger of each preset', () => {
  it('is the slot a screen or content swap changes, the paywall for plans or a currency, the upsell for its plans, unknown for a flow', () => {
    expect(
      Object.fromEntries(
        PRESETS.map((preset) => [preset, triggerSlotOf(PRESET_DEFINITIONS[preset].change)]),
      ),
    ).toEqual({
      landing: 'landing',
      landing_content: 'landing',
      flow: null,
      paywall_plans: 'paywall',
      price: 'paywall',
      country_price: 'paywall',
      upsell: 'upsell',
      upsell_price: 'upsell',
      save_offer: null,
    });
  });
});

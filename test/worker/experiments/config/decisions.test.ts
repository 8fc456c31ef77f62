import { describe, expect, it } from 'vitest';
import type { ExperimentDecision, ExperimentDocument } from '../../../../shared/config/experiments';
import { validateExperiments } from '../../../../worker/experiments/config/validate';
import { CONTEXT, priceTest, section } from './config-fixtures';

/**
 * The decision that ends the price test on Meta US: what a marketer must say to ship it, and
 * what they may not ship.
 */

const better = {
  phase: 1,
  metric: 'mature_revenue',
  relativeLift: 0.12,
  interval: [0.04, 0.2],
  verdict: 'better',
  srmAlarm: false,
} satisfies ExperimentDecision['evidence'];

function decision(overrides: Partial<ExperimentDecision> = {}): ExperimentDecision {
  return {
    result: 'won',
    action: 'roll_out',
    variant: 'b',
    at: '2026-12-10T10:12:00Z',
    by: 'anna@example.com',
    evidence: better,
    ...overrides,
  };
}

/** Route meta-us offering variant b's plans, as the decision making them its default leaves it. */
const B_ON_META_US = {
  ...CONTEXT,
  routing: {
    ...CONTEXT.routing,
    routes: CONTEXT.routing.routes.map((route) =>
      route.id === 'meta-us'
        ? { ...route, plans: ['monthly_3d_intro', 'monthly', 'quarterly'] }
        : route,
    ),
  },
};

function issuesOf(experiment: Partial<ExperimentDocument>) {
  const doc = section({
    'pw-us': priceTest({ endedAt: '2026-12-10T10:12:00.000Z', ...experiment }),
  });
  return validateExperiments(doc, B_ON_META_US).issues;
}

describe('a shipped experiment', () => {
  it('needs a decision', () => {
    expect(issuesOf({ status: 'shipped' })).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision',
        message: 'is required to ship: say what the test found and how it ships',
      },
    ]);
  });

  it('ships a winner that the results called better with no more said', () => {
    expect(issuesOf({ status: 'shipped', decision: decision() })).toEqual([]);
    expect(
      issuesOf({ status: 'shipped', decision: decision({ action: 'route_default' }) }),
    ).toEqual([]);
  });

  it('keeps the control without naming a variant or giving a reason', () => {
    const keep = decision({
      result: 'inconclusive',
      action: 'keep_control',
      evidence: { ...better, verdict: 'no_difference_yet' },
    });
    delete keep.variant;
    expect(issuesOf({ status: 'shipped', decision: keep })).toEqual([]);
  });
});

describe('an incomplete decision is refused, stopped or shipped', () => {
  it.each(['stopped', 'shipped'] as const)('%s: rolling out names the variant', (status) => {
    const missing = decision();
    delete missing.variant;
    expect(issuesOf({ status, decision: missing })).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision.variant',
        message: 'is required to roll out: name the variant that ships',
      },
    ]);
  });

  it('a stopped experiment may end without a decision', () => {
    expect(issuesOf({ status: 'stopped' })).toEqual([]);
  });

  it('rolling out or making a route default of the control is refused: it changes nothing', () => {
    expect(
      issuesOf({
        status: 'shipped',
        decision: decision({ action: 'route_default', variant: 'a' }),
      }),
    ).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision.variant',
        message:
          '"a" is the control, which changes nothing: choose keep_control, or the variant that ships',
      },
    ]);
  });

  it('keep_control ships no other variant', () => {
    expect(issuesOf({ status: 'shipped', decision: decision({ action: 'keep_control' }) })).toEqual(
      [
        {
          path: 'experiments.experiments.pw-us.decision.variant',
          message: 'keep_control ships no variant: take "b" out, or roll it out',
        },
      ],
    );
  });

  it('a variant not called better ships only with a reason', () => {
    const unsure = decision({ evidence: { ...better, verdict: 'no_difference_yet' } });
    expect(issuesOf({ status: 'shipped', decision: unsure })).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision.reason',
        message:
          'is required to ship "b": its verdict was "no_difference_yet", not "better"; say why it ships anyway',
      },
    ]);
    const reasoned = {
      ...unsure,
      reason: 'Same revenue, and the 3-day intro costs less in refunds.',
    };
    expect(issuesOf({ status: 'shipped', decision: reasoned })).toEqual([]);
  });

  it('a price test without a verdict yet (the mature sample is short) ships only with a reason', () => {
    const early = decision({ evidence: { ...better, verdict: null } });
    expect(issuesOf({ status: 'shipped', decision: early })[0]?.message).toBe(
      'is required to ship "b": its verdict was none, not "better"; say why it ships anyway',
    );
  });

  it('a winner under the sample ratio alarm ships only with a reason', () => {
    const alarmed = decision({ evidence: { ...better, srmAlarm: true } });
    expect(issuesOf({ status: 'shipped', decision: alarmed })).toEqual([
      {
        path: 'experiments.experiments.pw-us.decision.reason',
        message: 'is required to ship "b": the sample ratio alarm was on; say why it ships anyway',
      },
    ]);
  });
});

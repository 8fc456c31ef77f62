import { describe, expect, it } from 'vitest';
import { alertKey, alertsDue, NO_EXPOSURES_AFTER_MS } from '../../../worker/alerts/alert-rules';
import {
  priceExperiment,
  resultsAnswer,
  STARTED_AT,
} from '../../fixtures/experiment-results-answer';

/**
 * Which alerts an experiment's results call for (worker/alerts/alert-rules.ts): each rule fires
 * on its condition and stays silent otherwise, with a key that names the phase.
 */

const DAY_LATER = new Date(Date.parse(STARTED_AT) + NO_EXPOSURES_AFTER_MS);
const kinds = (alerts: { key: string }[]) => alerts.map((alert) => alert.key);

describe('a healthy experiment', () => {
  it('calls for no alert', () => {
    expect(alertsDue('pw-us', priceExperiment(), resultsAnswer(), DAY_LATER)).toEqual([]);
  });
});

describe('sample ratio mismatch', () => {
  it('fires when the results raise the alarm, with the arms and p', () => {
    const due = alertsDue('pw-us', priceExperiment(), resultsAnswer({ srmAlarm: true }), DAY_LATER);
    expect(due).toEqual([
      {
        key: 'pw-us|2|srm',
        experiment: 'pw-us',
        name: 'US paywall: 3-day intro at 2.99',
        phase: 2,
        facts: {
          kind: 'srm',
          pValue: 0.000_001,
          arms: [
            { variant: 'control', exposed: 1000, share: 0.5 },
            { variant: 'cheap', exposed: 1000, share: 0.5 },
          ],
        },
      },
    ]);
  });

  it('fires for a paused experiment too: its counts are still wrong', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment({ status: 'paused' }),
      resultsAnswer({ srmAlarm: true }),
      DAY_LATER,
    );
    expect(kinds(due)).toEqual(['pw-us|2|srm']);
  });

  it.each(['draft', 'stopped', 'shipped', 'archived'] as const)(
    'stays silent when %s',
    (status) => {
      const due = alertsDue(
        'pw-us',
        priceExperiment({ status }),
        resultsAnswer({ srmAlarm: true, cheap: { declines: 'worse' } }),
        DAY_LATER,
      );
      expect(due).toEqual([]);
    },
  );

  it('a new phase is a new key: the same condition is reported again', () => {
    const phase3 = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ phase: 3, srmAlarm: true }),
      DAY_LATER,
    );
    expect(kinds(phase3)).toEqual(['pw-us|3|srm']);
  });
});

describe('no exposures', () => {
  const empty = { control: { exposed: 0 }, cheap: { exposed: 0 } };

  it('fires 24 hours after the start with no one exposed in any arm', () => {
    const due = alertsDue('pw-us', priceExperiment(), resultsAnswer(empty), DAY_LATER);
    expect(due).toEqual([
      expect.objectContaining({
        key: 'pw-us|2|no_exposures',
        facts: { kind: 'no_exposures', startedAt: STARTED_AT, hours: 24 },
      }),
    ]);
  });

  it('stays silent a moment before 24 hours', () => {
    const early = new Date(DAY_LATER.getTime() - 1);
    expect(alertsDue('pw-us', priceExperiment(), resultsAnswer(empty), early)).toEqual([]);
  });

  it('stays silent when one arm has exposed someone', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ control: { exposed: 0 }, cheap: { exposed: 1 } }),
      DAY_LATER,
    );
    expect(due).toEqual([]);
  });

  it('stays silent when paused: a paused experiment exposes no one by design', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment({ status: 'paused' }),
      resultsAnswer(empty),
      DAY_LATER,
    );
    expect(due).toEqual([]);
  });

  it('stays silent without a start time', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment({ startedAt: undefined }),
      resultsAnswer(empty),
      DAY_LATER,
    );
    expect(due).toEqual([]);
  });

  it('stays silent in a later phase when an earlier one had visitors (its start is unknown)', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ ...empty, phase: 3, phases: [3, 2] }),
      DAY_LATER,
    );
    expect(due).toEqual([]);
  });
});

describe('guardrails', () => {
  it('fires for a variant whose declines are significantly worse, naming it', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ cheap: { declines: 'worse' } }),
      DAY_LATER,
    );
    expect(due).toEqual([
      expect.objectContaining({
        key: 'pw-us|2|guardrail_declines|cheap',
        facts: {
          kind: 'guardrail_declines',
          variant: 'cheap',
          variantName: '2.99 intro',
          rate: 0.041,
          controlRate: 0.023,
          relativeLift: 0.8,
          interval: [0.2, 1.4],
        },
      }),
    ]);
  });

  it('fires for refunds apart from declines, each with its own key', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ cheap: { declines: 'worse', refunds: 'worse' } }),
      DAY_LATER,
    );
    expect(kinds(due)).toEqual([
      'pw-us|2|guardrail_declines|cheap',
      'pw-us|2|guardrail_refunds|cheap',
    ]);
  });

  it.each(['better', 'no_difference_yet', 'not_enough_data', 'withheld_srm'] as const)(
    'stays silent on a %s verdict',
    (verdict) => {
      const due = alertsDue(
        'pw-us',
        priceExperiment(),
        resultsAnswer({ cheap: { declines: verdict, refunds: verdict } }),
        DAY_LATER,
      );
      expect(due).toEqual([]);
    },
  );
});

describe('field vitals', () => {
  it('fire for a variant whose LCP or INP is significantly worse, with both p75s', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ cheap: { lcp: 'worse', inp: 'worse' } }),
      DAY_LATER,
    );
    expect(kinds(due)).toEqual(['pw-us|2|guardrail_lcp|cheap', 'pw-us|2|guardrail_inp|cheap']);
    expect(due[0]?.facts).toEqual({
      kind: 'guardrail_lcp',
      variant: 'cheap',
      variantName: '2.99 intro',
      p75: 2700,
      controlP75: 2100,
      samples: 400,
      interval: [200, 960],
    });
  });

  it('a worse CLS is shown in the results but alerts no one', () => {
    const due = alertsDue(
      'pw-us',
      priceExperiment(),
      resultsAnswer({ cheap: { cls: 'worse' } }),
      DAY_LATER,
    );
    expect(due).toEqual([]);
  });

  it.each(['better', 'no_difference_yet', 'not_enough_data', 'withheld_srm'] as const)(
    'stay silent on a %s verdict',
    (verdict) => {
      const due = alertsDue(
        'pw-us',
        priceExperiment(),
        resultsAnswer({ cheap: { lcp: verdict, inp: verdict } }),
        DAY_LATER,
      );
      expect(due).toEqual([]);
    },
  );
});

describe('keys', () => {
  it('name the experiment, the phase, the kind and the variant, apart from one another', () => {
    expect(alertKey('pw-us', 2, 'srm')).toBe('pw-us|2|srm');
    expect(alertKey('pw-us', 2, 'guardrail_refunds', 'lp/b')).toBe(
      'pw-us|2|guardrail_refunds|lp/b',
    );
    expect(alertKey('pw-us', 12, 'srm')).not.toBe(alertKey('pw-us1', 2, 'srm'));
  });
});

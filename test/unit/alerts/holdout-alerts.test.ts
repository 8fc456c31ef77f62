import { describe, expect, it } from 'vitest';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import { alertMessage } from '../../../worker/alerts/alert-message';
import { holdoutAlertsDue } from '../../../worker/alerts/holdout-alerts';
import { holdoutAnswer } from '../../fixtures/experiment-results-answer';

/**
 * The holdout's alerts (worker/alerts/holdout-alerts.ts): the measured sample significantly
 * below the held out on mature net revenue per visitor, and the groups uneven, each keyed once
 * per holdout, in words a marketer reads.
 */

const HOLDOUT: HoldoutDocument = {
  seed: 'h-1b9e44',
  percent: 5,
  status: 'running',
  startedAt: '2026-06-01T00:00:00Z',
};

const keys = (holdout: HoldoutDocument, answer = holdoutAnswer()) =>
  holdoutAlertsDue(holdout, answer).map((alert) => alert.key);

describe('the holdout alerts', () => {
  it('on nothing while the groups match and the measured sample is not worse', () => {
    expect(keys(HOLDOUT)).toEqual([]);
  });

  it('when the measured sample is significantly worse on mature net revenue per visitor', () => {
    const [alert] = holdoutAlertsDue(HOLDOUT, holdoutAnswer({ worse: true }));
    expect(alert).toEqual({
      key: 'holdout:h-1b9e44|1|holdout_worse|measured',
      experiment: 'holdout',
      name: 'Holdout h-1b9e44 (5%)',
      phase: 1,
      facts: {
        kind: 'holdout_worse',
        variant: 'measured',
        mean: 410,
        controlMean: 452,
        currency: 'USD',
        relativeLift: (410 - 452) / 452,
        interval: [-0.155, -0.027],
        matureExposed: [1310, 1300],
      },
    });
  });

  it('when its groups are not the same size, apart from the revenue', () => {
    expect(keys(HOLDOUT, holdoutAnswer({ srmAlarm: true, worse: true }))).toEqual([
      'holdout:h-1b9e44|1|holdout_srm',
      'holdout:h-1b9e44|1|holdout_worse|measured',
    ]);
  });

  it('in its analysis period too, and never once it ended', () => {
    const answer = holdoutAnswer({ worse: true });
    const analysis = { ...HOLDOUT, status: 'analysis' as const, analysisFrom: HOLDOUT.startedAt };
    expect(keys(analysis, answer)).toHaveLength(1);
    const ended = { ...HOLDOUT, status: 'ended' as const, endedAt: HOLDOUT.startedAt };
    expect(keys(ended, answer)).toEqual([]);
  });

  it('a new holdout (a new seed) is a new key: its comparison is reported again', () => {
    expect(keys({ ...HOLDOUT, seed: 'h-2' }, holdoutAnswer({ worse: true }))).toEqual([
      'holdout:h-2|1|holdout_worse|measured',
    ]);
  });
});

describe("the holdout alerts' words", () => {
  const text = (answer: ReturnType<typeof holdoutAnswer>) =>
    holdoutAlertsDue(HOLDOUT, answer).map(
      (alert) => alertMessage(alert, 'https://funnel.example.com/console').text,
    );

  it('say what the shipped winners cost, per visitor, and link to its results', () => {
    expect(text(holdoutAnswer({ worse: true }))).toEqual([
      '*Holdout: shipped winners cost revenue*: Holdout h-1b9e44 (5%): the measured sample, which gets every winner shipped since the holdout started, makes less mature net revenue per visitor than the held out, significantly: 4.10 USD against 4.52 USD (-9.3%, interval -15.5% to -2.7%), over 1,300 and 1,310 mature visitors. Together those winners cost revenue: read the results of the experiments shipped since, and consider archiving the latest rolled out. <https://funnel.example.com/console?experiment=holdout&phase=1#results|Open it in the console>',
    ]);
  });

  it('say which group is larger when they are uneven', () => {
    expect(text(holdoutAnswer({ srmAlarm: true }))[0]).toContain(
      'its held-out group and its measured sample should be the same size and are not (sample ratio mismatch, p below 0.001): held_out 1,000, measured 1,000.',
    );
  });
});

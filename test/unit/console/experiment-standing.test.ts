import { describe, expect, it } from 'vitest';
import { experimentStanding } from '../../../console/experiments/experiment-standing';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ExperimentStatus } from '../../../shared/experiments';

/**
 * What the experiments list says of each experiment: the group and badge follow what visitors get
 * now (the published config), and a sentence says what publishing the draft would change.
 */

const experiment = (status: ExperimentStatus): ExperimentDocument => ({
  name: 'Price US',
  status,
  layer: 'paywall',
  audience: { routes: ['default'] },
  coverage: 1,
  seed: 'price-us',
  control: 'a',
  variants: { a: { weight: 1, change: {} }, b: { weight: 1, change: { plans: ['monthly'] } } },
});

describe('an experiment’s standing in the list', () => {
  it.each([
    ['running', 'running', 'running'],
    ['paused', 'paused', 'paused'],
    ['draft', 'not_started', 'not started'],
    ['stopped', 'ended', 'stopped'],
    ['shipped', 'ended', 'shipped'],
    ['archived', 'ended', 'archived'],
  ] as const)('published %s: group %s, badge "%s", nothing pending', (status, group, badge) => {
    expect(experimentStanding(experiment(status), experiment(status))).toEqual({
      group,
      status,
      badge,
      pending: null,
    });
  });

  it('keeps a running experiment paused only in the draft among the running, and says so', () => {
    expect(experimentStanding(experiment('paused'), experiment('running'))).toEqual({
      group: 'running',
      status: 'running',
      badge: 'running',
      pending: 'Your draft pauses it when you publish; until then it is running.',
    });
  });

  it.each([
    ['running', 'paused', 'Your draft resumes it when you publish; until then it is paused.'],
    ['stopped', 'running', 'Your draft stops it when you publish; until then it is running.'],
    ['shipped', 'paused', 'Your draft ends it when you publish; until then it is paused.'],
    ['running', 'draft', 'Your draft starts it when you publish; until then it is not started.'],
    ['archived', 'stopped', 'Your draft archives it when you publish; until then it is stopped.'],
  ] as const)('draft %s over published %s: "%s"', (draft, live, pending) => {
    expect(experimentStanding(experiment(draft), experiment(live)).pending).toBe(pending);
  });

  it('puts one never published among the not started, though the draft starts it', () => {
    expect(experimentStanding(experiment('draft'), undefined)).toEqual({
      group: 'not_started',
      status: 'draft',
      badge: 'not started',
      pending: 'New in your draft: not published yet.',
    });
    expect(experimentStanding(experiment('running'), undefined)).toMatchObject({
      group: 'not_started',
      badge: 'not started',
      pending:
        'New in your draft, which starts it when you publish; until then no visitor sees it.',
    });
  });

  it('says when the draft changes more than the status', () => {
    const changed = { ...experiment('running'), coverage: 0.5 };
    expect(experimentStanding(changed, experiment('running'))).toMatchObject({
      group: 'running',
      pending: 'Changed in your draft: visitors get the published version until you publish.',
    });
  });
});

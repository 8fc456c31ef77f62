import { describe, expect, it } from 'vitest';
import { experimentStanding } from '../../../console/experiments/experiment-standing';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ExperimentStatus } from '../../../shared/experiments';
import { rampedAiLandingTest } from '../../fixtures/ai-landing-test';

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
      ramp: null,
    });
  });

  it('keeps a running experiment paused only in the draft among the running, and says so', () => {
    expect(experimentStanding(experiment('paused'), experiment('running'))).toEqual({
      group: 'running',
      status: 'running',
      badge: 'running',
      pending: 'Your draft pauses it when you publish; until then it is running.',
      ramp: null,
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
      ramp: null,
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

  it('says a ramp rolled back or held by its guardrails or a person, in the badge and a line', () => {
    const ramped = (status: 'running' | 'held' | 'rolled_back', reason?: string) => {
      const base = rampedAiLandingTest('2026-12-01T09:00:00.000Z');
      return {
        ...base,
        ramp: {
          ...base.ramp!,
          state: { ...base.ramp!.state, status, ...(reason ? { reason } : {}) },
        },
      };
    };
    const rolledBack = ramped('rolled_back', 'broken: declines (63.00% against 0.00%)');
    expect(experimentStanding(rolledBack, rolledBack)).toMatchObject({
      group: 'running',
      badge: 'rolled back',
      ramp: 'Guarded ramp rolled back by guardrail: declines (63.00% against 0.00%) (at step 1 of 2, 2026-12-01 09:00 UTC): the variant reaches no one.',
    });
    const held = ramped('held', 'support tickets up');
    expect(experimentStanding(held, held)).toMatchObject({
      badge: 'ramp held',
      ramp: 'Guarded ramp held by a person: support tickets up (at step 1 of 2, 2026-12-01 09:00 UTC).',
    });
    const running = ramped('running');
    expect(experimentStanding(running, running)).toMatchObject({
      badge: 'running',
      ramp: 'Guarded ramp running, step 1 of 2 since 2026-12-01 09:00 UTC: 10% of its visitors enter, half of them getting the variant. Next gate: Step 2 (100% enter) once 2026-12-02 09:00 UTC has passed and each arm has 100 exposed, with no guardrail that holds or rolls back broken.',
    });
    // Set on a draft that started later: the step's hours count from the start, as the engine's.
    const late = { ...running, startedAt: '2026-12-03T12:00:00.000Z' };
    expect(experimentStanding(late, late).ramp).toContain('once 2026-12-04 12:00 UTC has passed');
  });
});

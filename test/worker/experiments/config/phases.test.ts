import { describe, expect, it } from 'vitest';
import type { ExperimentDecision, ExperimentDocument } from '../../../../shared/config/experiments';
import { experimentPhaseChanges, stampPublish } from '../../../../worker/experiments/config/phases';
import { landingTest, priceTest, section } from './config-fixtures';

/**
 * Each experiment counts its results per phase: a publish that changes the drawn shares of a
 * running one starts its next phase. A publish also stamps when an experiment started and
 * ended, and who made its decision, whatever the console sent.
 */

const NOW = new Date('2026-12-10T10:12:00.000Z');
const STAMP = NOW.toISOString();

const weights = (a: number, b: number) => (e: ExperimentDocument) => ({
  ...e,
  variants: { a: { ...e.variants.a!, weight: a }, b: { ...e.variants.b!, weight: b } },
});

describe('experimentPhaseChanges', () => {
  const live = section({ 'pw-us': priceTest({ phase: 2, coverage: 0.5 }) });

  it('new shares of a running experiment start its next phase, saying why', () => {
    const next = section({ 'pw-us': weights(1, 3)(priceTest({ phase: 2 })) });
    expect(Object.fromEntries(experimentPhaseChanges(live, next))).toEqual({
      'pw-us': { from: 2, to: 3, reason: 'the shares change: a 50% → 25%, b 50% → 75%' },
    });
  });

  it('a variant paused (weight 0) starts one too', () => {
    const next = section({ 'pw-us': weights(1, 0)(priceTest({ phase: 2 })) });
    expect(experimentPhaseChanges(live, next).get('pw-us')?.reason).toBe(
      'the shares change: a 50% → 100%; b is paused',
    );
  });

  it('the same shares written otherwise, more coverage or a new name start none', () => {
    const next = section({
      'pw-us': { ...weights(50, 50)(priceTest({ phase: 2 })), coverage: 1, name: 'Intros' },
    });
    expect(experimentPhaseChanges(live, next).size).toBe(0);
  });

  it('starting, and stopping with new weights, start none', () => {
    expect(experimentPhaseChanges(null, live).size).toBe(0);
    const draft = section({ 'pw-us': priceTest({ status: 'draft' }) });
    expect(
      experimentPhaseChanges(draft, section({ 'pw-us': weights(1, 3)(priceTest()) })).size,
    ).toBe(0);
    const stopped = section({ 'pw-us': { ...weights(1, 3)(priceTest()), status: 'stopped' } });
    expect(experimentPhaseChanges(live, stopped).size).toBe(0);
  });

  it('each experiment has its own phases', () => {
    const both = section({ 'pw-us': priceTest({ phase: 2 }), 'lp-ai': landingTest({ phase: 5 }) });
    const next = section({
      'pw-us': priceTest({ phase: 2 }),
      'lp-ai': {
        ...landingTest({ phase: 5 }),
        variants: {
          control: { weight: 3, change: {} },
          ai: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
        },
      },
    });
    expect([...experimentPhaseChanges(both, next)]).toEqual([
      ['lp-ai', { from: 5, to: 6, reason: 'the shares change: control 50% → 75%, ai 50% → 25%' }],
    ]);
  });
});

describe('stampPublish', () => {
  const stamp = (
    next: Record<string, ExperimentDocument>,
    live: Record<string, ExperimentDocument> | null,
  ) =>
    stampPublish(section(next), live === null ? null : section(live), NOW, 'anna@example.com')
      .experiments;

  it('a new running experiment starts in phase 1, now, whatever the console sent', () => {
    const sent = priceTest({
      phase: 7,
      startedAt: '2020-01-01T00:00:00Z',
      endedAt: '2020-01-02T00:00:00Z',
    });
    const stamped = stamp({ 'pw-us': sent }, null)['pw-us']!;
    expect([stamped.phase, stamped.startedAt, stamped.endedAt]).toEqual([1, STAMP, undefined]);
  });

  it('a draft has no phase and no start, until it runs', () => {
    const draft = priceTest({ status: 'draft', phase: 3 });
    const drafted = stamp({ 'pw-us': draft }, null)['pw-us']!;
    expect([drafted.phase, drafted.startedAt]).toEqual([undefined, undefined]);
    const run = stamp({ 'pw-us': { ...draft, status: 'running' } }, { 'pw-us': draft })['pw-us']!;
    expect([run.phase, run.startedAt]).toEqual([1, STAMP]);
  });

  it('new weights move it to its next phase; it keeps its start', () => {
    const live = priceTest({ phase: 2, startedAt: '2026-11-20T09:00:00.000Z' });
    const stamped = stamp({ 'pw-us': { ...weights(1, 3)(live), phase: 1 } }, { 'pw-us': live })[
      'pw-us'
    ]!;
    expect([stamped.phase, stamped.startedAt]).toEqual([3, '2026-11-20T09:00:00.000Z']);
  });

  it('an edit that keeps the shares keeps the phase the live document has', () => {
    const live = priceTest({ phase: 2 });
    const stamped = stamp(
      { 'pw-us': { ...live, phase: 9, notes: 'more Meta budget' } },
      { 'pw-us': live },
    )['pw-us']!;
    expect(stamped.phase).toBe(2);
  });

  it('stopping it stamps its end; shipping it later keeps that end and signs the decision', () => {
    const live = priceTest({ phase: 2 });
    const stopped = stamp({ 'pw-us': { ...live, status: 'stopped' } }, { 'pw-us': live })['pw-us']!;
    expect([stopped.phase, stopped.endedAt]).toEqual([2, STAMP]);

    const decision: ExperimentDecision = {
      result: 'won',
      action: 'roll_out',
      variant: 'b',
      at: '2020-01-01T00:00:00Z',
      by: 'someone@else.example',
      evidence: {
        phase: 2,
        metric: 'mature_revenue',
        relativeLift: 0.1,
        interval: [0.02, 0.18],
        verdict: 'better',
        srmAlarm: false,
      },
    };
    const wasStopped = { ...stopped, endedAt: '2026-12-01T00:00:00.000Z' };
    const shipped = stamp(
      { 'pw-us': { ...wasStopped, status: 'shipped', decision } },
      { 'pw-us': wasStopped },
    )['pw-us']!;
    expect(shipped.endedAt).toBe('2026-12-01T00:00:00.000Z');
    expect(shipped.decision).toEqual({ ...decision, at: STAMP, by: 'anna@example.com' });

    // Published again unchanged, the decision keeps who made it and when.
    const again = stamp(
      { 'pw-us': { ...shipped, decision: { ...decision, by: 'x@y.example' } } },
      { 'pw-us': shipped },
    )['pw-us']!;
    expect(again.decision).toEqual(shipped.decision);
  });

  it('shipping straight from running ends it now', () => {
    const live = priceTest();
    const shipped = stamp(
      {
        'pw-us': {
          ...live,
          status: 'shipped',
          decision: {
            result: 'inconclusive',
            action: 'keep_control',
            at: STAMP,
            by: 'anna@example.com',
            evidence: {
              phase: 1,
              metric: 'mature_revenue',
              relativeLift: null,
              interval: null,
              verdict: null,
              srmAlarm: false,
            },
          },
        },
      },
      { 'pw-us': live },
    )['pw-us']!;
    expect(shipped.endedAt).toBe(STAMP);
  });
});

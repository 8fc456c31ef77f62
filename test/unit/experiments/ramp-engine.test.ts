import { describe, expect, it } from 'vitest';
import type { RampDocument } from '../../../shared/config/ramp';
import {
  harmTest,
  sampleRatioTest,
  shortfallTest,
} from '../../../worker/experiments/ramps/guardrail-tests';
import {
  guardrailAlpha,
  movedRamp,
  type RampObservation,
  readRamp,
} from '../../../worker/experiments/ramps/ramp-engine';

/**
 * The guarded ramp's state machine (worker/experiments/ramps/ramp-engine.ts): a step advances
 * only when its hours, each arm's minimum and every guardrail clear; a broken guardrail does
 * its action; a held ramp waits for a person; a rolled-back one makes no move.
 */

const HOUR = 60 * 60 * 1000;
const SINCE = Date.parse('2026-12-01T00:00Z');

function ramp(state: Partial<RampDocument['state']> = {}, more: Partial<RampDocument> = {}) {
  return {
    steps: [
      { coverage: 0.05, holdHours: 24, minPerArm: 500 },
      { coverage: 0.5, holdHours: 0, minPerArm: 0 },
    ],
    state: { step: 0, since: new Date(SINCE).toISOString(), status: 'running', ...state },
    ...more,
  } as RampDocument;
}

function seen(
  exposed: number,
  variant: Partial<RampObservation['variant']> = {},
  more: Partial<RampObservation> = {},
): RampObservation {
  const arm = {
    exposed,
    conversions: exposed * 0.05,
    purchases: exposed * 0.05,
    declines: exposed * 0.03,
    checkoutErrors: 0,
    serverErrors: exposed * 0.002,
    clientErrors: exposed * 0.004,
    refunds: 0,
  };
  return {
    control: arm,
    variant: { ...arm, ...variant },
    primaryBuys: true,
    lcpWorse: false,
    inpWorse: false,
    ...more,
  };
}

const clock = (hours: number) => ({
  now: SINCE + hours * HOUR,
  startedAt: SINCE,
  plannedPerArm: 2000,
});

describe('the ramp engine', () => {
  it('advances only once the hours and each arm’s minimum are reached', () => {
    expect(readRamp(ramp(), seen(600), clock(23)).move).toEqual({ kind: 'stay' });
    expect(readRamp(ramp(), seen(400), clock(25)).move).toEqual({ kind: 'stay' });
    expect(readRamp(ramp(), seen(600), clock(25)).move).toEqual({ kind: 'advance', step: 1 });
    const gate = readRamp(ramp(), seen(600), clock(1)).gate!;
    expect(gate).toMatchObject({
      nextStep: 1,
      nextCoverage: 0.5,
      minPerArm: 500,
      exposedPerArm: 600,
    });
    expect(gate.holdUntil).toBe(SINCE + 24 * HOUR);
    // Set on a draft a day before it ran: the step's hours count from the start.
    const late = { ...clock(25), startedAt: SINCE + 24 * HOUR };
    expect(readRamp(ramp(), seen(600), late).move).toEqual({ kind: 'stay' });
    expect(readRamp(ramp(), seen(600), { ...late, now: SINCE + 48 * HOUR }).move).toEqual({
      kind: 'advance',
      step: 1,
    });
    // From the last step, done; done and held ramps do not advance.
    expect(readRamp(ramp({ step: 1 }), seen(600), clock(1)).move).toEqual({ kind: 'done' });
    expect(readRamp(ramp({ status: 'held' }), seen(600), clock(25)).move).toEqual({ kind: 'stay' });
    expect(readRamp(ramp({ status: 'done', step: 1 }), seen(600), clock(25)).move).toEqual({
      kind: 'stay',
    });
  });

  it('rolls back on doubled declines, and records why', () => {
    const harmed = seen(3000, { declines: 180 });
    const { move, guardrails } = readRamp(ramp(), harmed, clock(30));
    expect(move).toMatchObject({ kind: 'rollback', reason: expect.stringContaining('declines') });
    expect(guardrails.find((g) => g.guardrail === 'declines')).toMatchObject({ broken: true });
    const back = movedRamp(ramp(), move, SINCE + 30 * HOUR);
    expect(back.state).toMatchObject({
      status: 'rolled_back',
      reason: expect.stringContaining('6.00%'),
    });
    expect(readRamp(back, harmed, clock(31)).move).toEqual({ kind: 'stay' });
    // The same harm, as a warning only, lets the ramp go on.
    const warned = ramp({}, { guardrails: { declines: 'warn', checkout_errors: 'warn' } });
    expect(readRamp(warned, harmed, clock(30)).move).toEqual({ kind: 'advance', step: 1 });
  });

  it('rolls back a variant whose visitors stop converting, whatever its declines say', () => {
    // A Pay button that never works: no purchase, so no decline either.
    const broken = seen(1500, { conversions: 0, declines: 0 });
    const { move, guardrails } = readRamp(ramp(), broken, clock(30));
    expect(move).toMatchObject({ kind: 'rollback', reason: expect.stringContaining('conversion') });
    expect(guardrails.find((g) => g.guardrail === 'conversion')).toMatchObject({
      broken: true,
      detail: '0.00% converted against 5.00%',
    });
    expect(guardrails.find((g) => g.guardrail === 'declines')).toMatchObject({ broken: false });
    // Converting more is no harm, however much more.
    const better = readRamp(ramp(), seen(1500, { conversions: 300 }), clock(30));
    expect(better.guardrails.find((g) => g.guardrail === 'conversion')!.broken).toBe(false);
    // As a hold, a person looks first.
    const held = ramp({}, { guardrails: { conversion: 'hold' } });
    expect(readRamp(held, broken, clock(30)).move).toMatchObject({ kind: 'hold' });
  });

  it('rolls back a landing test whose visitors still look up but stop buying', () => {
    // Judged on lookups (20% in both arms), the variant's Pay never works: its purchases fall.
    const lookups = { primaryBuys: false };
    const broken = seen(1500, { conversions: 300, purchases: 0, declines: 0 }, lookups);
    broken.control = { ...broken.control, conversions: 300 };
    const { move, guardrails } = readRamp(ramp(), broken, clock(30));
    expect(move).toMatchObject({ kind: 'rollback', reason: expect.stringContaining('conversion') });
    expect(guardrails.find((g) => g.guardrail === 'conversion')).toMatchObject({
      broken: true,
      detail: 'purchases: 0.00% converted against 5.00%',
    });
    // Sound on both, it stays; fewer lookups alone still break it.
    const sound = seen(1500, { conversions: 300 }, lookups);
    sound.control = { ...sound.control, conversions: 300 };
    expect(readRamp(ramp(), sound, clock(30)).move.kind).not.toBe('rollback');
    const fewerLookups = seen(1500, { conversions: 150 }, lookups);
    fewerLookups.control = { ...fewerLookups.control, conversions: 300 };
    expect(readRamp(ramp(), fewerLookups, clock(30)).guardrails[0]).toMatchObject({
      guardrail: 'conversion',
      broken: true,
      detail: '10.00% converted against 20.00%',
    });
  });

  it('holds on slower pages, and on no traffic after the grace period', () => {
    const slow = readRamp(ramp(), seen(600, {}, { lcpWorse: true }), clock(30));
    expect(slow.move).toMatchObject({ kind: 'hold', reason: expect.stringContaining('lcp') });
    expect(
      readRamp(ramp({ status: 'held' }), seen(600, {}, { lcpWorse: true }), clock(30)).move,
    ).toEqual({ kind: 'stay' });
    expect(readRamp(ramp(), seen(0), clock(23)).move).toEqual({ kind: 'stay' });
    // Said as the console says a time, to the minute in UTC.
    expect(readRamp(ramp(), seen(0), clock(25)).move).toEqual({
      kind: 'hold',
      reason: 'broken: no traffic (0 exposed since 2026-12-01 00:00 UTC)',
    });
  });

  it('holds on a sample ratio mismatch, and splits α among the guardrails that act', () => {
    const lopsided = seen(1000, { exposed: 1400, conversions: 70, declines: 42 });
    expect(readRamp(ramp(), lopsided, clock(30)).move).toMatchObject({
      kind: 'hold',
      reason: expect.stringContaining('srm'),
    });
    const strict = ramp({}, { guardrails: { srm: 'rollback' } });
    expect(readRamp(strict, lopsided, clock(30)).move).toMatchObject({ kind: 'rollback' });
    // Conversion, declines, checkout, server and client errors and the sample ratio act;
    // refunds only warn.
    expect(guardrailAlpha(ramp())).toBeCloseTo(0.05 / 6);
    expect(
      guardrailAlpha(ramp({}, { guardrails: { refunds: 'rollback' }, alpha: 0.1 })),
    ).toBeCloseTo(0.1 / 7);
  });
});

describe('the guardrail tests', () => {
  it('judge harm on one side only, and nothing before the minimum data', () => {
    expect(
      harmTest({ exposed: 3000, events: 180 }, { exposed: 3000, events: 90 }, 0.0125, 2000).broken,
    ).toBe(false);
    expect(
      harmTest({ exposed: 3000, events: 90 }, { exposed: 3000, events: 180 }, 0.0125, 2000).broken,
    ).toBe(true);
    expect(
      harmTest({ exposed: 50, events: 0 }, { exposed: 50, events: 20 }, 0.0125, 2000),
    ).toMatchObject({
      broken: false,
      detail: expect.stringContaining('too few'),
    });
    expect(
      shortfallTest({ exposed: 3000, events: 150 }, { exposed: 3000, events: 75 }, 0.0125, 2000)
        .broken,
    ).toBe(true);
    expect(
      shortfallTest({ exposed: 3000, events: 75 }, { exposed: 3000, events: 150 }, 0.0125, 2000)
        .broken,
    ).toBe(false);
    expect(
      shortfallTest({ exposed: 50, events: 5 }, { exposed: 50, events: 0 }, 0.0125, 2000),
    ).toMatchObject({ broken: false, detail: expect.stringContaining('too few') });
    expect(sampleRatioTest(1000, 1010, 0.0125, 2000).broken).toBe(false);
    expect(sampleRatioTest(1000, 1400, 0.0125, 2000).broken).toBe(true);
  });
});

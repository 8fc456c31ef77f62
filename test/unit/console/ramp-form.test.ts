import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  RAMP_PRESETS,
  type RampForm,
  rampedProblems,
  rampFormOf,
  rampOfForm,
  rampProblems,
} from '../../../console/experiments/ramp-form';
import { rampedExperimentIssues, ramp as rampSchema } from '../../../shared/config/ramp';
import { DEFAULT_RAMP_ACTIONS, RAMP_ACTIONS, RAMP_GUARDRAILS } from '../../../shared/ramps';

/**
 * "Start on a guarded ramp" as pure functions (console/experiments/ramp-form.ts): the steps in
 * the share of the audience that enters, written as the variant's coverage; and one validator:
 * the form refuses exactly what the config's check (shared/config/ramp.ts) refuses.
 */

const NOW = new Date('2026-12-01T09:00:00Z');

const careful = (): RampForm => ({ ...rampFormOf(undefined), on: true });

describe('the ramp a form makes', () => {
  it('writes each step’s share of the audience as the variant’s half of it, from step 0 now', () => {
    const ramp = rampOfForm(careful(), NOW);
    expect(ramp).toEqual({
      steps: [
        { coverage: 0.025, holdHours: 24, minPerArm: 500 },
        { coverage: 0.125, holdHours: 24, minPerArm: 2000 },
        { coverage: 0.25, holdHours: 24, minPerArm: 5000 },
        { coverage: 0.5, holdHours: 0, minPerArm: 0 },
      ],
      state: { step: 0, since: '2026-12-01T09:00:00.000Z', status: 'running' },
    });
    expect(rampOfForm(rampFormOf(ramp), NOW)).toEqual(ramp);
    expect(rampOfForm({ ...careful(), on: false }, NOW)).toBeUndefined();
  });

  it('writes only the guardrails whose action is not the default, and keeps α', () => {
    const form = { ...careful(), actions: { ...careful().actions, lcp: 'warn' as const } };
    const kept = {
      ...rampOfForm(careful(), NOW)!,
      alpha: 0.1,
      guardrails: { srm: 'warn' as const },
    };
    expect(rampOfForm(form, NOW, kept)).toMatchObject({ alpha: 0.1, guardrails: { lcp: 'warn' } });
    expect(rampFormOf(kept).actions).toEqual({ ...DEFAULT_RAMP_ACTIONS, srm: 'warn' });
  });

  it('offers a page speed hold or warn only', () => {
    expect(actionsFor('lcp')).toEqual(['hold', 'warn']);
    expect(actionsFor('inp')).toEqual(['hold', 'warn']);
    expect(actionsFor('declines')).toEqual(RAMP_ACTIONS);
  });
});

describe('what the form refuses, at its field', () => {
  it('a step that does not grow, a share over 100% and a page speed that rolls back', () => {
    const form = careful();
    form.steps[1] = { ...form.steps[1]!, enters: 5 };
    form.steps[3] = { ...form.steps[3]!, enters: 120 };
    form.actions.inp = 'rollback';
    expect(rampProblems(form)).toEqual({
      'ramp-step-1': 'Enter more than the step before’s 5%: a ramp only grows.',
      'ramp-step-3': 'Enter a share above 0%, at most 100%.',
      'ramp-inp':
        'Hold or warn only: a page speed is reported by the visitor’s browser, which could forge it.',
    });
  });

  it('what the ramp asks of its experiment: one variant, equal weights, a coverage of 100%', () => {
    const on = { on: true };
    expect(rampedProblems(on, { coveragePercent: 50, weights: [1, 2] })).toEqual({
      weights:
        'A ramp draws its arms half and half: give the variant and the control the same weight.',
      coverage: 'Enter 100% with a ramp: its steps say who enters.',
    });
    expect(rampedProblems(on, { coveragePercent: 100, weights: [1, 1, 1] })).toEqual({
      'ramp-on': 'A ramp takes one variant against its control: keep exactly one variant.',
    });
    expect(rampedProblems({ on: false }, { coveragePercent: 50, weights: [1, 2, 3] })).toEqual({});
  });
});

const step = fc.record({
  enters: fc.oneof(fc.integer({ min: -5, max: 120 }), fc.constantFrom(0.5, 33.3, Number.NaN)),
  hours: fc.oneof(fc.integer({ min: -1, max: 2200 }), fc.constantFrom(1.5, Number.NaN)),
  minPerArm: fc.oneof(fc.integer({ min: -1, max: 20_000 }), fc.constantFrom(2.5, Number.NaN)),
});
const form = fc.record({
  on: fc.constant(true),
  steps: fc.array(step, { minLength: 1, maxLength: 11 }),
  actions: fc.record(
    Object.fromEntries(RAMP_GUARDRAILS.map((g) => [g, fc.constantFrom(...RAMP_ACTIONS)])),
  ) as fc.Arbitrary<RampForm['actions']>,
});

describe('one validator', () => {
  it('the form refuses a ramp exactly when the config’s check does', () => {
    fc.assert(
      fc.property(form, (ramp) => {
        const accepted = rampSchema.safeParse(rampOfForm(ramp, NOW)).success;
        expect(Object.keys(rampProblems(ramp)).length === 0).toBe(accepted);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an experiment for its ramp exactly when the config’s check does', () => {
    const shape = fc.record({
      coveragePercent: fc.constantFrom(100, 50, 99.99),
      weights: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
    });
    fc.assert(
      fc.property(shape, ({ coveragePercent, weights }) => {
        const issues = rampedExperimentIssues({
          coverage: Math.round(coveragePercent * 100) / 10_000,
          variants: Object.fromEntries(weights.map((weight, i) => [`v${i}`, { weight }])),
        });
        const problems = rampedProblems({ on: true }, { coveragePercent, weights });
        expect(Object.keys(problems).length).toBe(issues.length);
      }),
    );
  });

  it('each preset is accepted', () => {
    for (const preset of Object.values(RAMP_PRESETS)) {
      const ramp = { ...careful(), steps: preset.steps.map((s) => ({ ...s })) };
      expect(rampProblems(ramp)).toEqual({});
      expect(rampSchema.safeParse(rampOfForm(ramp, NOW)).success).toBe(true);
    }
  });
});

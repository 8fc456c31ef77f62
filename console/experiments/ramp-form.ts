import type { RampDocument } from '../../shared/config/ramp';
import {
  DEFAULT_RAMP_ACTIONS,
  FORGEABLE_GUARDRAILS,
  MAX_RAMP_COVERAGE,
  RAMP_ACTIONS,
  RAMP_GUARDRAILS,
  type RampAction,
  type RampGuardrail,
} from '../../shared/ramps';

/**
 * "Start on a guarded ramp" in the create form and a draft's edit dialog, as pure functions
 * (docs/experiments.md, "Guarded ramps"): the steps a marketer fills, in the share of the
 * audience that enters (the variant's coverage and an equal control: 5% enters is a coverage of
 * 0.025), what each guardrail does, and what the worker's check (shared/config/ramp.ts) would
 * refuse, said beside its field before the review. The console refuses nothing that check
 * accepts (test/unit/console/ramp-form.test.ts compares them).
 */

/** One step as typed: the percent of the matching visitors who enter, half in each arm. */
export interface RampStepForm {
  enters: number;
  hours: number;
  minPerArm: number;
}

export interface RampForm {
  /** Whether the experiment starts on a ramp. */
  on: boolean;
  steps: RampStepForm[];
  actions: Record<RampGuardrail, RampAction>;
}

/** What a marketer calls each guardrail. */
export const GUARDRAIL_NAMES: Record<RampGuardrail, string> = {
  conversion: 'Primary conversion (worse only)',
  declines: 'Payment declines',
  checkout_errors: 'Checkout errors',
  server_errors: 'Server errors (5xx)',
  client_errors: 'Page errors (hold only)',
  refunds: 'Refunds',
  lcp: 'Page loading (LCP)',
  inp: 'Responsiveness (INP)',
  srm: 'Sample ratio',
  no_traffic: 'No traffic',
};

/** The step schedules a marketer starts from; each can be changed after. */
export const RAMP_PRESETS = {
  careful: {
    label: 'Careful: 5%, 25%, 50%, then 100% of the audience, a day each',
    steps: [
      { enters: 5, hours: 24, minPerArm: 500 },
      { enters: 25, hours: 24, minPerArm: 2_000 },
      { enters: 50, hours: 24, minPerArm: 5_000 },
      { enters: 100, hours: 0, minPerArm: 0 },
    ],
  },
  quick: {
    label: 'Quick: 10%, 50%, then 100% of the audience, 4 hours each',
    steps: [
      { enters: 10, hours: 4, minPerArm: 200 },
      { enters: 50, hours: 4, minPerArm: 1_000 },
      { enters: 100, hours: 0, minPerArm: 0 },
    ],
  },
} as const satisfies Record<string, { label: string; steps: readonly RampStepForm[] }>;
export type RampPreset = keyof typeof RAMP_PRESETS;

/** The most steps the check takes (shared/config/ramp.ts). */
export const MAX_RAMP_STEPS = 10;
const MAX_HOURS = 24 * 90;
const MAX_MIN_PER_ARM = 10_000_000;

/** What each guardrail may do: a page speed, which a browser reports, never rolls back. */
export function actionsFor(guardrail: RampGuardrail): readonly RampAction[] {
  return FORGEABLE_GUARDRAILS.has(guardrail)
    ? RAMP_ACTIONS.filter((action) => action !== 'rollback')
    : RAMP_ACTIONS;
}

/** Why a page speed may only hold or warn, said beside its choice. */
export const FORGEABLE_REASON =
  'Hold or warn only: a page speed is reported by the visitor’s browser, which could forge it.';

const stepsOf = (preset: RampPreset) => RAMP_PRESETS[preset].steps.map((step) => ({ ...step }));

/** The percent of the audience a coverage lets in: the variant's share and the control's. */
const entersOf = (coverage: number) => Math.round(coverage * 2 * 100_000) / 1000;
/** The coverage a percent entering stands for; four decimals, as typed. */
const coverageOf = (enters: number) => Math.round((enters / 2) * 100) / 10_000;

/** The form for an experiment's ramp; off, with the careful steps, when it has none. */
export function rampFormOf(ramp: RampDocument | undefined): RampForm {
  return {
    on: ramp !== undefined,
    steps: ramp
      ? ramp.steps.map((step) => ({
          enters: entersOf(step.coverage),
          hours: step.holdHours,
          minPerArm: step.minPerArm,
        }))
      : stepsOf('careful'),
    actions: { ...DEFAULT_RAMP_ACTIONS, ...ramp?.guardrails },
  };
}

/** The form with `preset`'s steps. */
export const withPreset = (form: RampForm, preset: RampPreset): RampForm => ({
  ...form,
  steps: stepsOf(preset),
});

/**
 * The ramp the form makes, starting at its first step at `now`; undefined when off. Only the
 * guardrails whose action is not the default are written, so the config says what was chosen.
 * `kept` is the ramp the experiment had: its other fields (α, the no-traffic hours) stay.
 */
export function rampOfForm(
  form: RampForm,
  now: Date,
  kept?: RampDocument,
): RampDocument | undefined {
  if (!form.on) return undefined;
  const chosen = RAMP_GUARDRAILS.filter((g) => form.actions[g] !== DEFAULT_RAMP_ACTIONS[g]);
  const { guardrails: _guardrails, steps: _steps, state: _state, ...rest } = kept ?? {};
  return {
    ...rest,
    steps: form.steps.map((step) => ({
      coverage: coverageOf(step.enters),
      holdHours: step.hours,
      minPerArm: step.minPerArm,
    })),
    ...(chosen.length > 0
      ? { guardrails: Object.fromEntries(chosen.map((g) => [g, form.actions[g]])) }
      : {}),
    state: { step: 0, since: now.toISOString(), status: 'running' },
  };
}

/** What is wrong with the form, by field key: `ramp-steps`, `ramp-step-N`, `ramp-<guardrail>`. */
export type RampProblems = Partial<Record<string, string>>;

const isWhole = (value: number, least: number, most: number) =>
  Number.isInteger(value) && value >= least && value <= most;

function stepProblem(step: RampStepForm, before: RampStepForm | undefined): string | null {
  if (!(step.enters > 0 && coverageOf(step.enters) <= MAX_RAMP_COVERAGE))
    return 'Enter a share above 0%, at most 100%.';
  if (before !== undefined && !(coverageOf(step.enters) > coverageOf(before.enters)))
    return `Enter more than the step before’s ${before.enters}%: a ramp only grows.`;
  if (!(Number.isFinite(step.hours) && step.hours >= 0 && step.hours <= MAX_HOURS))
    return 'Enter hours from 0 to 2160 (90 days).';
  if (!isWhole(step.minPerArm, 0, MAX_MIN_PER_ARM))
    return 'Enter a whole number of visitors per arm from 0 to 10,000,000.';
  return null;
}

/** What the ramp's steps and guardrails may not hold (shared/config/ramp.ts `ramp`). */
export function rampProblems(form: RampForm): RampProblems {
  const problems: RampProblems = {};
  if (!form.on) return problems;
  if (form.steps.length === 0) problems['ramp-steps'] = 'Give the ramp at least one step.';
  if (form.steps.length > MAX_RAMP_STEPS)
    problems['ramp-steps'] = `Give the ramp at most ${MAX_RAMP_STEPS} steps.`;
  form.steps.forEach((step, index) => {
    const problem = stepProblem(step, form.steps[index - 1]);
    if (problem !== null) problems[`ramp-step-${index}`] = problem;
  });
  for (const guardrail of RAMP_GUARDRAILS)
    if (!actionsFor(guardrail).includes(form.actions[guardrail]))
      problems[`ramp-${guardrail}`] = FORGEABLE_REASON;
  return problems;
}

/**
 * What a ramp asks of its experiment (shared/config/ramp.ts rampedExperimentIssues), said at the
 * fields that set it: one variant against its control (`ramp-on`, beside the choice of a ramp,
 * as the variants are set when the experiment is created), at equal weights
 * (`weights`), and a coverage of 100% (`coverage`), since the ramp's step says who enters.
 */
export function rampedProblems(
  form: Pick<RampForm, 'on'>,
  experiment: { coveragePercent: number; weights: readonly number[] },
): RampProblems {
  const problems: RampProblems = {};
  if (!form.on) return problems;
  const { weights } = experiment;
  if (weights.length !== 2)
    problems['ramp-on'] = 'A ramp takes one variant against its control: keep exactly one variant.';
  else if (weights[0] !== weights[1])
    problems.weights =
      'A ramp draws its arms half and half: give the variant and the control the same weight.';
  if (experiment.coveragePercent !== 100)
    problems.coverage = 'Enter 100% with a ramp: its steps say who enters.';
  return problems;
}

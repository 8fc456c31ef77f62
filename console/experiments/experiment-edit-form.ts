import type { ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { DEFAULT_DRAIN_DAYS, type ExperimentMetric } from '../../shared/experiments';
import { rangeClash } from './layer-space';
import { type RampForm, rampedProblems, rampFormOf, rampOfForm, rampProblems } from './ramp-form';

/**
 * The edit dialog of one experiment, as pure functions: the form a marketer fills, what it may
 * not hold, and the experiment it makes. A running or paused experiment takes only the edits the
 * worker's validator allows of one (worker/experiments/config/edits.ts editIssues): names, notes,
 * metrics, drain days, more coverage, a wider range containing the old one, and weights, which
 * start a new phase. The rest (audience, layer, variants and what they change) stays as it is
 * here; changing it means stopping the experiment and duplicating it. A draft takes any value.
 */

export interface ExperimentEditForm {
  name: string;
  hypothesis: string;
  notes: string;
  primary: ExperimentMetric | '';
  plannedPerArm: number | null;
  /** In percent, as typed. */
  coverage: number;
  range: [number, number];
  weights: Record<string, number>;
  drainDays: number;
  /** Its guarded ramp (ramp-form.ts): set on a draft only, as the validator allows. */
  ramp: RampForm;
}

/** Percent as typed from a share: 0.3 → 30, not 30.000000000000004. */
const percentOf = (share: number) => Math.round(share * 100_000) / 1000;
/** Four decimals: a share typed in percent stays the number typed. */
const shareOf = (percent: number) => Math.round(percent * 100) / 10_000;

export function editFormOf(experiment: ExperimentDocument): ExperimentEditForm {
  const [from, to] = experiment.range ?? [0, 1];
  return {
    name: experiment.name,
    hypothesis: experiment.hypothesis ?? '',
    notes: experiment.notes ?? '',
    primary: experiment.metrics?.primary ?? '',
    plannedPerArm: experiment.metrics?.plannedPerArm ?? null,
    coverage: percentOf(experiment.coverage),
    range: [percentOf(from), percentOf(to)],
    weights: Object.fromEntries(
      Object.entries(experiment.variants).map(([key, variant]) => [key, variant.weight]),
    ),
    drainDays: experiment.drainDays ?? DEFAULT_DRAIN_DAYS,
    ramp: rampFormOf(experiment.ramp),
  };
}

/**
 * Whether the dialog offers the experiment's ramp: on a draft that was never live, as a ramp is
 * set before an experiment runs and stays while it is live (worker/experiments/ramps/
 * ramp-edits.ts).
 */
export const rampEditable = (
  experiment: ExperimentDocument,
  live: ExperimentDocument | undefined,
): boolean => experiment.status === 'draft' && !onlySafeEdits(live);

/** Whether the validator holds `live` to the safe edits: it is drawing visitors, or may again. */
export function onlySafeEdits(live: ExperimentDocument | undefined): live is ExperimentDocument {
  return live?.status === 'running' || live?.status === 'paused';
}

/** The form's fields that may not be published, each with what to do, in the form's order. */
export type EditField =
  | 'name'
  | 'planned'
  | 'coverage'
  | 'range'
  | 'weights'
  | `weight-${string}`
  | 'drain'
  | `ramp-${string}`;
export type EditProblems = Partial<Record<EditField, string>>;

/** The validator's most visitors a variant may be planned for (shared/config/experiments.ts). */
const MAX_PLANNED = 100_000_000;

const wholeFrom = (value: number | null, least: number) =>
  value !== null && Number.isInteger(value) && value >= least;

/**
 * What the form may not hold. `live` is the experiment as published: while it runs or is
 * paused, coverage only rises and the range only widens around the old one, as the validator
 * compares with what is live, not with the draft. `now` reads which ranges of the layer are held.
 */
export function editProblems(options: {
  form: ExperimentEditForm;
  id: string;
  experiment: ExperimentDocument;
  live: ExperimentDocument | undefined;
  document: ConfigDocument;
  now: Date;
}): EditProblems {
  const { form, id, experiment, live, document, now } = options;
  const problems: EditProblems = {};
  const safe = onlySafeEdits(live);
  if (form.name.trim() === '') problems.name = 'Give the experiment a name.';
  if (
    form.plannedPerArm !== null &&
    !(wholeFrom(form.plannedPerArm, 100) && form.plannedPerArm <= MAX_PLANNED)
  )
    problems.planned = 'Enter a whole number from 100 to 100,000,000.';
  const oldCoverage = safe ? percentOf(live.coverage) : null;
  if (!(form.coverage > 0 && form.coverage <= 100))
    problems.coverage = 'Enter a share above 0%, at most 100%.';
  else if (oldCoverage !== null && form.coverage < oldCoverage)
    problems.coverage = `While it ${live?.status === 'paused' ? 'is paused' : 'runs'}, the coverage can only rise: enter ${oldCoverage}% or more.`;
  const [from, to] = form.range;
  const [oldFrom, oldTo] = safe ? (live.range ?? [0, 1]).map(percentOf) : [null, null];
  if (!(from >= 0 && to <= 100 && from < to))
    problems.range = 'Enter a stretch from 0 to 100%, its start below its end.';
  else if (oldFrom !== null && oldTo !== null && (from > oldFrom || to < oldTo))
    problems.range = `While it ${live?.status === 'paused' ? 'is paused' : 'runs'}, the range can only widen: it must contain ${oldFrom}–${oldTo}%.`;
  else {
    const found = rangeClash(document, experiment, [from / 100, to / 100], now, id);
    if (found?.refused)
      problems.range = `That stretch overlaps ${found.clash.name} in layer ${experiment.layer}, which holds visitors: keep it within the layer’s free space.`;
  }
  for (const [key, weight] of Object.entries(form.weights))
    if (!(Number.isFinite(weight) && weight >= 0))
      problems[`weight-${key}`] = 'Enter a number, 0 or more.';
  const total = Object.values(form.weights).reduce((sum, weight) => sum + weight, 0);
  if (!Object.keys(problems).some((key) => key.startsWith('weight-')) && !(total > 0))
    problems.weights = 'Give at least one variant a weight above 0.';
  if (!wholeFrom(form.drainDays, 0) || form.drainDays > 90)
    problems.drain = 'Enter a whole number of days from 0 to 90.';
  if (rampEditable(experiment, live))
    Object.assign(
      problems,
      rampedProblems(form.ramp, {
        coveragePercent: form.coverage,
        weights: Object.values(form.weights),
      }),
      rampProblems(form.ramp),
    );
  return problems;
}

/**
 * What starting or resuming the edited draft would meet in its stretch of the layer, or null: a
 * draft is not refused a stretch another experiment holds (the validator checks it on start).
 */
export function editRangeWarning(options: {
  form: ExperimentEditForm;
  id: string;
  experiment: ExperimentDocument;
  document: ConfigDocument;
  now: Date;
}): string | null {
  const { form, id, experiment, document, now } = options;
  const [from, to] = form.range;
  if (!(from >= 0 && to <= 100 && from < to)) return null;
  const found = rangeClash(document, experiment, [from / 100, to / 100], now, id);
  if (found === null || found.refused) return null;
  return `That stretch overlaps ${found.clash.name} in layer ${experiment.layer}: the draft saves, but it cannot start while ${found.clash.name} holds it.`;
}

/** The share a percent field stands for: the stored one while the field still shows it. */
const shareKept = (percent: number, stored: number) =>
  percentOf(stored) === percent ? stored : shareOf(percent);

/**
 * The experiment the form makes; what the dialog does not show is kept as it was. A ramp the
 * form left as it was stays as it was; one set or changed starts at its first step at `now`.
 */
export function experimentOfEdit(
  experiment: ExperimentDocument,
  form: ExperimentEditForm,
  now = new Date(),
): ExperimentDocument {
  const {
    ramp: _ramp,
    hypothesis: _hypothesis,
    notes: _notes,
    metrics: _metrics,
    range: _range,
    drainDays: _drain,
    ...kept
  } = experiment;
  const edited: ExperimentDocument = {
    ...kept,
    name: form.name.trim(),
    coverage: shareKept(form.coverage, experiment.coverage),
    variants: Object.fromEntries(
      Object.entries(experiment.variants).map(([key, variant]) => [
        key,
        { ...variant, weight: form.weights[key] ?? variant.weight },
      ]),
    ),
  };
  if (form.hypothesis.trim() !== '') edited.hypothesis = form.hypothesis.trim();
  if (form.notes.trim() !== '') edited.notes = form.notes.trim();
  const metrics: NonNullable<ExperimentDocument['metrics']> = {};
  if (form.primary !== '') metrics.primary = form.primary;
  if (form.plannedPerArm !== null) metrics.plannedPerArm = form.plannedPerArm;
  if (Object.keys(metrics).length > 0) edited.metrics = metrics;
  const [from, to] = form.range;
  // The whole layer stays unsaid, as an experiment created over it has it.
  const [oldFrom, oldTo] = experiment.range ?? [0, 1];
  if (from > 0 || to < 100 || experiment.range)
    edited.range = [shareKept(from, oldFrom), shareKept(to, oldTo)];
  if (form.drainDays !== DEFAULT_DRAIN_DAYS || experiment.drainDays !== undefined)
    edited.drainDays = form.drainDays;
  const unchanged = JSON.stringify(form.ramp) === JSON.stringify(rampFormOf(experiment.ramp));
  const ramp = unchanged ? experiment.ramp : rampOfForm(form.ramp, now, experiment.ramp);
  if (ramp) edited.ramp = ramp;
  return edited;
}

/**
 * Each drawn variant's share of the total: what a phase is read from
 * (worker/experiments/config/phases.ts).
 */
function shares(weights: Readonly<Record<string, number>>): Map<string, number> {
  const drawn = Object.entries(weights).filter(([, weight]) => weight > 0);
  const total = drawn.reduce((sum, [, weight]) => sum + weight, 0);
  return new Map(drawn.map(([key, weight]) => [key, weight / total]));
}

/**
 * Whether the form's weights draw visitors in other shares than `experiment`'s: on a running
 * or paused experiment, its publish starts a new phase. 1:1 → 2:2 draws the same shares.
 */
export function sharesChange(
  experiment: ExperimentDocument,
  weights: Readonly<Record<string, number>>,
): boolean {
  const was = shares(
    Object.fromEntries(Object.entries(experiment.variants).map(([k, v]) => [k, v.weight])),
  );
  const now = shares(weights);
  if (was.size !== now.size) return true;
  return [...now].some(([key, share]) => {
    const old = was.get(key);
    return old === undefined || Math.abs(old - share) > 1e-9;
  });
}

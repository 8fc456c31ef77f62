import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { ExperimentPhaseChange, PhaseChange } from '../../../shared/console-api/config';
import type { ExperimentStatus } from '../../../shared/experiments';
import { sameValue } from './edits';

/**
 * What a phase is read from: the variants and their weights. The split (SplitDocument) and each
 * experiment of the experiments section (shared/experiments.ts) both have this shape.
 */
export interface Weighted {
  variants: Record<string, { weight: number }>;
}

/**
 * When a publish starts a new phase of the experiment (ARCHITECTURE.md, "The marketers'
 * console"): when the share of traffic of any variant that is drawn changes, a variant starts or
 * stops being drawn, or the weights otherwise stop meaning what they meant. Visitors assigned
 * under different shares are not comparable (a variant at 10% for a week, then 50%, meets a
 * different mix of days and campaigns than its rival), so results count each phase apart.
 *
 * Weights are read as shares of their total (SPEC.md §4), so 50/50 → 1/1 changes nothing. Edits
 * that leave every share as it was (a flow's screens, a paused variant added, the default
 * variant, a note) keep the phase.
 */
export function phaseChange(
  before: Weighted | null,
  after: Weighted,
  currentPhase: number,
): PhaseChange | null {
  if (before === null) return null;
  const was = shares(before);
  const now = shares(after);
  const reasons: string[] = [];
  const changed: string[] = [];
  for (const [key, share] of now) {
    const old = was.get(key);
    if (old === undefined) reasons.push(`${key} starts being drawn (${percent(share)})`);
    else if (!sameShare(old, share)) changed.push(`${key} ${percent(old)} → ${percent(share)}`);
  }
  for (const key of was.keys()) {
    if (!now.has(key)) {
      const gone = Object.hasOwn(after.variants, key) ? 'is paused' : 'is removed';
      reasons.push(`${key} ${gone}`);
    }
  }
  if (changed.length > 0) reasons.unshift(`the shares change: ${changed.join(', ')}`);
  if (reasons.length === 0) return null;
  return { from: currentPhase, to: currentPhase + 1, reason: reasons.join('; ') };
}

/** Each drawn variant (weight above 0) with its share of the total, 0 to 1. */
function shares(split: Weighted): Map<string, number> {
  const drawn = Object.entries(split.variants).filter(([, variant]) => variant.weight > 0);
  const total = drawn.reduce((sum, [, variant]) => sum + variant.weight, 0);
  return new Map(drawn.map(([key, variant]) => [key, variant.weight / total]));
}

/** Shares computed from different totals (1/3 from 1:2, from 10:20) may differ in the last bit. */
const sameShare = (a: number, b: number) => Math.abs(a - b) < 1e-9;

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/**
 * Phases and the instants a publish stamps on each experiment, never typed by a marketer: like the
 * split's phase (phaseChange above, worker/config/publish.ts), what the console
 * sends for them is replaced by what follows from the live document and this publish.
 */

/** Statuses in which visitors are drawn, or will be again on resuming: where weights matter. */
const DRAWING: ReadonlySet<ExperimentStatus> = new Set(['running', 'paused']);

/**
 * The experiments whose publish starts a new phase: a running or paused one whose drawn shares
 * change (phaseChange, per experiment). Visitors assigned under other shares
 * are not comparable, so its results count each phase apart. An experiment that starts running
 * starts in phase 1, which is no change; one that stops draws no one more.
 */
export function experimentPhaseChanges(
  live: ExperimentsDocument | null | undefined,
  next: ExperimentsDocument,
): Map<string, PhaseChange> {
  const changes = new Map<string, PhaseChange>();
  for (const [id, experiment] of Object.entries(next.experiments)) {
    const was = live && Object.hasOwn(live.experiments, id) ? live.experiments[id] : undefined;
    const rollOut = was ? rollOutPhase(was, experiment) : null;
    if (rollOut) changes.set(id, rollOut);
    if (!was || !DRAWING.has(was.status) || !DRAWING.has(experiment.status)) continue;
    const change = phaseChange(was, experiment, was.phase ?? 1);
    if (change) changes.set(id, change);
  }
  return changes;
}

/**
 * A roll-out that starts on a ramp (docs/experiments.md, "A ramped roll-out") counts its two
 * bands in a phase of their own, so its guardrails compare only them, never the test's visitors.
 */
function rollOutPhase(was: ExperimentDocument, next: ExperimentDocument): PhaseChange | null {
  if (was.status === 'draft' || next.decision?.ramp === undefined) return null;
  if (was.decision?.ramp !== undefined) return null;
  const from = was.phase ?? 1;
  return { from, to: from + 1, reason: 'its roll-out starts on a ramp, counted apart' };
}

/**
 * The experiments of the `experiments` section whose publish starts a new phase, by the same
 * rule as the split's (phaseChange), in document order: what the
 * console's review shows (CheckAnswer.experimentPhases) and the publish stamps.
 */
export function experimentPhases(
  before: ExperimentsDocument | null,
  after: ExperimentsDocument,
): ExperimentPhaseChange[] {
  return [...experimentPhaseChanges(before, after)].map(([experiment, change]) => ({
    experiment,
    ...change,
  }));
}

/**
 * The document as it is stored: each experiment's `phase` (1 when it first runs, one more when its
 * shares change), `startedAt` when it first runs, `endedAt` when it stops or ships, carried over
 * from the live document otherwise; and a decision that is new or changed dated `now` and signed by
 * `author`, whoever the console said made it (one published before keeps its own date and name). Run on a document the validator accepted.
 */
export function stampPublish(
  next: ExperimentsDocument,
  live: ExperimentsDocument | null | undefined,
  now: Date,
  author: string,
): ExperimentsDocument {
  const at = now.toISOString();
  const changes = experimentPhaseChanges(live, next);
  const experiments: Record<string, ExperimentDocument> = {};
  for (const [id, experiment] of Object.entries(next.experiments)) {
    const was = live && Object.hasOwn(live.experiments, id) ? live.experiments[id] : undefined;
    const { phase: _phase, startedAt: _started, endedAt: _ended, ...rest } = experiment;
    const stamped: ExperimentDocument = { ...rest };
    if (experiment.status !== 'draft') {
      const ran = was !== undefined && was.status !== 'draft';
      const phase = ran ? (changes.get(id)?.to ?? was.phase ?? 1) : 1;
      const startedAt = ran ? was.startedAt : at;
      const ends = experiment.status === 'stopped' || experiment.status === 'shipped';
      const endedAt = ends && (!ran || DRAWING.has(was.status)) ? at : was?.endedAt;
      stamped.phase = phase;
      if (startedAt !== undefined) stamped.startedAt = startedAt;
      if (endedAt !== undefined) stamped.endedAt = endedAt;
    }
    if (experiment.decision) {
      const kept = sameDecision(experiment.decision, was?.decision) ? was?.decision : undefined;
      stamped.decision = { ...experiment.decision, at: kept?.at ?? at, by: kept?.by ?? author };
    }
    experiments[id] = stamped;
  }
  return { ...next, experiments };
}

/**
 * The same decision, whenever and by whoever it was written down; its roll-out's ramp moving on
 * (a step, a hold, a rollback) keeps who decided and when.
 */
function sameDecision(
  a: NonNullable<ExperimentDocument['decision']>,
  b: ExperimentDocument['decision'],
): boolean {
  if (b === undefined) return false;
  const { at: _a, by: _b, ramp: _r, ...first } = a;
  const { at: _c, by: _d, ramp: _s, ...second } = b;
  return sameValue(first, second);
}

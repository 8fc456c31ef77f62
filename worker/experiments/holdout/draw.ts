import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import { saltedShare } from '../assignment/assign';
import type { CompiledExperiments, ExperimentAssignment } from '../config/evaluate';

/**
 * Who the holdout keeps back and who is measured against them (docs/experiments.md, "The
 * holdout"). The worker draws it for each visitor before any experiment, by the hash of their id
 * with the holdout's own salt, `<seed>#holdout` (a seed never holds '#', so no experiment's or
 * layer's draw is this one): a share h below p (the holdout's percent) is held out, p ≤ h < 2p is
 * the measured sample of everyone else, the same size, and the rest are neither.
 *
 * An experiment is covered when it started while the holdout ran: at or after the holdout's
 * start, before its analysis period began. Experiments started before are left alone, for all:
 * their visitors were drawn before the holdout existed. The split section records no start and
 * is never covered; nor are the routes, nor a variant made a route's default (the validator
 * refuses that for a covered experiment while the holdout runs: roll it out instead).
 *
 * In a covered experiment, both groups get the control while it runs and are never exposed, so
 * neither counts in it; once it ships rolled out, the measured sample gets the winner, as
 * everyone does, and the held out keep the control. So the measured sample sees every shipped
 * winner and no running loser (GrowthBook users' stricter form, Eppo's `all_shipped`).
 */

/** The two groups the holdout compares: `held_out` keeps the controls, `measured` is the rest's sample. */
export type HoldoutGroup = 'held_out' | 'measured';

const HOLDOUT_SALT = '#holdout';

/** The visitor's share for the holdout, [0, 1): its own draw, apart from every experiment's. */
export function holdoutShare(seed: string, visitorId: string): number {
  return saltedShare(seed, HOLDOUT_SALT, visitorId);
}

/** Whether the holdout keeps visitors back at `now`: started, and not ended. */
function holdsBack(holdout: HoldoutDocument, now: number): boolean {
  return holdout.status !== 'ended' && Date.parse(holdout.startedAt) <= now;
}

/**
 * The visitor's group in the holdout, or null: neither (most visitors), no holdout, one not
 * running, or no id to hash (a preview, a described visitor).
 */
export function holdoutGroup(
  holdout: HoldoutDocument | undefined,
  visitorId: string | null,
  now: number,
): HoldoutGroup | null {
  if (holdout === undefined || visitorId === null || !holdsBack(holdout, now)) return null;
  const p = holdout.percent / 100;
  const share = holdoutShare(holdout.seed, visitorId);
  if (share < p) return 'held_out';
  return share < 2 * p ? 'measured' : null;
}

/** Whether the holdout covers the experiment: it started while the holdout took new ones. */
export function coversExperiment(
  holdout: HoldoutDocument,
  experiment: ExperimentDocument,
): boolean {
  if (holdout.status === 'ended' || experiment.startedAt === undefined) return false;
  const started = Date.parse(experiment.startedAt);
  if (started < Date.parse(holdout.startedAt)) return false;
  return holdout.analysisFrom === undefined || started < Date.parse(holdout.analysisFrom);
}

const covering = new WeakMap<ExperimentsDocument, ReadonlySet<string>>();

/** The ids of the experiments the section's holdout covers, once per document. */
function coveredExperiments(experiments: ExperimentsDocument): ReadonlySet<string> {
  const known = covering.get(experiments);
  if (known) return known;
  const { holdout } = experiments;
  const covered = new Set(
    holdout === undefined
      ? []
      : Object.entries(experiments.experiments)
          .filter(([, experiment]) => coversExperiment(holdout, experiment))
          .map(([id]) => id),
  );
  covering.set(experiments, covered);
  return covered;
}

/**
 * The visitor's assignments with the holdout applied: in each covered experiment, the control,
 * applied and never exposed, unless the visitor is measured and it is the winner rolled out.
 * Arms a marketer chose (a preview's) stay as chosen.
 */
export function heldBack(
  experiments: ExperimentsDocument,
  compiled: CompiledExperiments,
  assignments: readonly ExperimentAssignment[],
  group: HoldoutGroup,
  chosen?: ReadonlyMap<string, string>,
): ExperimentAssignment[] {
  const covered = coveredExperiments(experiments);
  return assignments.map((assignment) => {
    const experiment = compiled.byId.get(assignment.experiment);
    if (!experiment || !covered.has(experiment.id) || chosen?.has(experiment.id)) return assignment;
    const shipped =
      assignment.state === 'applied' &&
      experiment.rolledOut !== null &&
      experiment.rolledOut === assignment.variant;
    if (group === 'measured' && shipped) return assignment;
    const { byAccount: _byAccount, ...rest } = assignment;
    return { ...rest, variant: experiment.control, state: 'applied' };
  });
}

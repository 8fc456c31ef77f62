import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { coversSince } from '../../../shared/holdout';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import { saltedShare } from '../assignment/assign';
import type { CompiledExperiments, ExperimentAssignment } from '../config/evaluate';
import type { ExperimentArm } from '../store/every-experiment-statements';

/**
 * The holdout as a visitor meets it: who it holds back (holdoutGroup), the routes it passes over
 * for them (routesPassedOver), and how its two groups are counted as one experiment-like unit
 * (the exposure below). What a publish may do to it is ./holdout-issues.ts.
 */

/**
 * Who the holdout keeps back and who is measured against them (docs/experiments.md, "The
 * holdout"). The worker draws it for each visitor before any experiment, by the hash of their id
 * with the holdout's own salt, `<seed>#holdout` (a seed never holds '#', so no experiment's or
 * layer's draw is this one): a share h below p (the holdout's percent) is held out, p ≤ h < 2p is
 * the measured sample of everyone else, the same size, and the rest are neither.
 *
 * An experiment is covered when it started while the holdout ran: at or after the holdout's
 * start, before its analysis period began. Experiments started before are left alone, for all:
 * their visitors were drawn before the holdout existed. So is the split test, unless its current
 * phase (its drawn variants and shares, `split.since`) began while the holdout ran; and a route
 * first published while it ran (`since`) is a route the held out never get
 * (routesPassedOver, below). A variant made a route's default is not covered (the validator refuses that
 * for a covered experiment while the holdout runs: roll it out instead), nor is an edit of a
 * route that was there before.
 *
 * In a covered experiment, both groups get the control while it runs and are never exposed, so
 * neither counts in it; once it ships rolled out, the measured sample gets the winner, as
 * everyone does, and the held out keep the control. So the measured sample sees every shipped
 * winner and no running loser (GrowthBook users' stricter form, Eppo's `all_shipped`). The
 * covered split ships by its weights: one variant drawn, not its default (the control).
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
  return coversSince(holdout, experiment.startedAt);
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
 * The split's variant every visitor it draws gets, when its weights draw that one alone and it
 * is not the default variant (its control): a winner shipped by the split's weights. Else null.
 */
function splitShipped(split: SplitDocument): string | null {
  const drawn = Object.entries(split.variants).filter(([, variant]) => variant.weight > 0);
  const only = drawn.length === 1 ? drawn[0]![0] : null;
  return only === split.defaultVariant ? null : only;
}

/** The config sections whose starts say what the holdout covers. */
export interface HoldoutSections {
  experiments: ExperimentsDocument;
  split: SplitDocument;
}

/**
 * The visitor's assignments with the holdout applied: in each covered experiment, the control,
 * applied and never exposed, unless the visitor is measured and it is the winner rolled out. In
 * the covered split likewise, except for a visitor it exposed before its current phase, who
 * keeps their variant as everyone does. Arms a marketer chose (a preview's) stay as chosen.
 */
export function heldBack(
  sections: HoldoutSections,
  compiled: CompiledExperiments,
  assignments: readonly ExperimentAssignment[],
  group: HoldoutGroup,
  chosen?: ReadonlyMap<string, string>,
): ExperimentAssignment[] {
  const covered = coveredExperiments(sections.experiments);
  const { holdout } = sections.experiments;
  const splitCovered = holdout !== undefined && coversSince(holdout, sections.split.since);
  const splitWinner = splitCovered ? splitShipped(sections.split) : null;
  return assignments.map((assignment) => {
    const experiment = compiled.byId.get(assignment.experiment);
    if (!experiment || chosen?.has(experiment.id)) return assignment;
    let shipped: boolean;
    if (experiment.id === SPLIT_EXPERIMENT_ID) {
      if (!splitCovered || assignment.state === 'pinned') return assignment;
      shipped = assignment.variant === splitWinner;
    } else {
      if (!covered.has(experiment.id)) return assignment;
      shipped =
        assignment.state === 'applied' &&
        experiment.rolledOut !== null &&
        experiment.rolledOut === assignment.variant;
    }
    if (group === 'measured' && shipped) return assignment;
    const { byAccount: _byAccount, ...rest } = assignment;
    return { ...rest, variant: experiment.control, state: 'applied' };
  });
}

/**
 * The routes a held-out visitor never gets (docs/experiments.md, "The holdout"): each route first
 * published while the holdout took new ones (its `since`, ./holdout-issues.ts). The router passes over
 * them for the held out, who get the route it picks without them, the one they would have got
 * before; the measured sample and everyone else get them as published. `default` takes everyone
 * else and is never passed over. Worked out once per routing document; a page asks for it only
 * when it chooses a route, and draws the visitor's group only when there is one.
 */

const NONE: ReadonlySet<string> = new Set();

const byDocument = new WeakMap<
  RoutingDocument,
  { holdout: HoldoutDocument | undefined; ids: ReadonlySet<string> }
>();

/** The ids of the routes the holdout covers: first published while it took new ones. */
function coveredRoutes(
  holdout: HoldoutDocument | undefined,
  routing: RoutingDocument,
): ReadonlySet<string> {
  const known = byDocument.get(routing);
  if (known && known.holdout === holdout) return known.ids;
  const ids =
    holdout === undefined
      ? NONE
      : new Set(
          routing.routes
            .filter((route) => route.id !== DEFAULT_ROUTE_ID && coversSince(holdout, route.since))
            .map((route) => route.id),
        );
  byDocument.set(routing, { holdout, ids });
  return ids;
}

/**
 * The routes the router passes over for the visitor (worker/routing/router.ts chooseRoute): the
 * covered ones when the holdout holds them out at `now`, else none (undefined).
 */
export function routesPassedOver(
  config: { experiments: { holdout?: HoldoutDocument | undefined }; routing: RoutingDocument },
  visitorId: string | null,
  now: number,
): ReadonlySet<string> | undefined {
  const { holdout } = config.experiments;
  const covered = coveredRoutes(holdout, config.routing);
  if (covered.size === 0) return undefined;
  return holdoutGroup(holdout, visitorId, now) === 'held_out' ? covered : undefined;
}

/**
 * How the holdout's two groups are counted (docs/statistics.md, "The holdout"): as the two arms
 * of one experiment-like unit in the visitors' shards, `holdout:<seed>` (no experiment id holds
 * ':'), phase 1, arms `held_out` and `measured`. So a held-out or measured visitor's purchases,
 * refunds, renewals and mature net revenue are counted there by the very statements that count
 * an experiment's arms, and its results are read as an experiment's are.
 *
 * A visitor is exposed on the first funnel page the worker serves them while the holdout holds
 * visitors back, by the same rules as an experiment's exposure (worker/middleware/exposure.ts:
 * no preview, prefetch, form post or `skip_split`; known bots apart), whatever screen it is:
 * the holdout acts on the whole funnel. They are pinned then, as `holdout~<group>/<seed>` in
 * `gf_x` (the id `holdout` is reserved, as `split` is), so each is counted once: one more row
 * in the request their page's exposures make anyway, and one cookie write.
 */

/** The `gf_x` pin's id, which no experiment may take (worker/experiments/config/validate.ts). */
export const HOLDOUT_PIN = 'holdout';

/** The unit the holdout counts under in the shards: one per holdout, by its seed. */
export function holdoutUnit(seed: string): string {
  return `holdout:${seed}`;
}

/** The holdout's arm a page would expose the visitor to, and the pin that keeps it counted once. */
export interface HoldoutExposure {
  arm: ExperimentArm;
  /** `gf_x`'s entry, HOLDOUT_PIN → `<group>/<seed>`. */
  pin: { experiment: string; variant: string };
}

/**
 * The holdout exposure a funnel page owes the visitor in `group` (null: neither), or null when
 * their pin says they were counted in this holdout already.
 */
export function holdoutExposure(
  experiments: ExperimentsDocument,
  group: HoldoutGroup | null,
  pins: ReadonlyMap<string, string>,
): HoldoutExposure | null {
  const seed = experiments.holdout?.seed;
  if (group === null || seed === undefined) return null;
  const pin = `${group}/${seed}`;
  if (pins.get(HOLDOUT_PIN) === pin) return null;
  return {
    arm: { experiment: holdoutUnit(seed), phase: 1, variant: group },
    pin: { experiment: HOLDOUT_PIN, variant: pin },
  };
}

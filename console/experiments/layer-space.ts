import { audiencesDisjoint, rangesOverlap } from '../../shared/audiences-overlap';
import type { ExperimentAudience, ExperimentDocument } from '../../shared/config/experiments';
import type { ConfigDocument } from '../../shared/console-api/config';
import { DEFAULT_DRAIN_DAYS, type Layer, SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { holdsVisitors } from '../../shared/layer-holders';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';

/**
 * What of each layer's buckets the experiments take, and what is free, for the layer bars and
 * for the range a new experiment is offered. The worker's validator decides what overlaps
 * (worker/experiments/config/validate.ts): two experiments of a layer may share a stretch when
 * their audiences can never meet (other routes), by the same proof
 * (shared/audiences-overlap.ts). This counts as taken what it would count, plus drafts, which
 * would be refused on starting if they overlapped.
 */

export interface TakenRange {
  id: string;
  name: string;
  status: ExperimentDocument['status'];
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;

/** Whether the experiment ships a variant rolled out to its audience. */
export function rollsOut(experiment: ExperimentDocument): boolean {
  return experiment.status === 'shipped' && experiment.decision?.action === 'roll_out';
}

/** Whether the visitors it exposed keep their variant still: ended, and within its drain days. */
function draining(experiment: ExperimentDocument, now: Date): boolean {
  if (experiment.endedAt === undefined) return true;
  const drain = (experiment.drainDays ?? DEFAULT_DRAIN_DAYS) * DAY_MS;
  return now.getTime() < Date.parse(experiment.endedAt) + drain;
}

/**
 * Whether an ended experiment can be archived, freeing its range: its drain is over. A variant
 * rolled out holds its range while it is shipped: archiving it takes the variant from its
 * audience, which the dialog says (experiment-texts.ts moveText), or it is first made the routes'
 * default (RouteDefaultDialog.tsx), which keeps it for them.
 */
export function canArchive(experiment: ExperimentDocument, now: Date): boolean {
  const ended = experiment.status === 'stopped' || experiment.status === 'shipped';
  return ended && !draining(experiment, now);
}

/**
 * The ranges of `layer` taken, in order from 0. The split test, while it has more than one
 * variant, is an experiment of the flow layer taking all of it (worker/experiments/config/
 * migrate-split.ts).
 */
export function takenRanges(
  document: Pick<ConfigDocument, 'split' | 'experiments' | 'routing'>,
  layer: Layer,
  now: Date,
  options: {
    /** An experiment not to count: the one being edited. */
    except?: string;
    /** Whose space: only experiments whose audiences can meet it take any. Absent: anyone's. */
    audience?: ExperimentAudience;
    /**
     * Whether drafts count: the layer bars show what they reserve, but the validator refuses
     * only what overlaps an experiment holding visitors (shared/layer-holders.ts), and so do
     * the forms. Absent: they count.
     */
    drafts?: boolean;
  } = {},
): TakenRange[] {
  const { except, audience } = options;
  const drafts = options.drafts ?? true;
  const meets = (other: ExperimentAudience) =>
    audience === undefined || !audiencesDisjoint(audience, other, document.routing);
  const holds = (experiment: ExperimentDocument) =>
    holdsVisitors(experiment, now) || (drafts && experiment.status === 'draft');
  const splitAudience = { routes: [...(document.split.routes ?? [DEFAULT_ROUTE_ID])] };
  const split: TakenRange[] =
    layer === 'flow' && Object.keys(document.split.variants).length > 1 && meets(splitAudience)
      ? [{ id: SPLIT_EXPERIMENT_ID, name: 'The split test', status: 'running', from: 0, to: 1 }]
      : [];
  const experiments = Object.entries(document.experiments.experiments)
    .filter(([id, e]) => id !== except && e.layer === layer && holds(e) && meets(e.audience))
    .map(([id, e]) => ({
      id,
      name: e.name,
      status: e.status,
      from: e.range?.[0] ?? 0,
      to: e.range?.[1] ?? 1,
    }));
  return [...split, ...experiments].sort((a, b) => a.from - b.from || a.to - b.to);
}

/**
 * Why `experiment` may not take [from, to) of its layer, as the validator would refuse it: it
 * holds visitors, and the stretch overlaps another holder its audience can meet. A draft is not
 * refused (the validator checks it when it starts): `warning` says what starting it would meet.
 */
export function rangeClash(
  document: Pick<ConfigDocument, 'split' | 'experiments' | 'routing'>,
  experiment: Pick<
    ExperimentDocument,
    'layer' | 'audience' | 'status' | 'decision' | 'endedAt' | 'drainDays'
  >,
  range: readonly [number, number],
  now: Date,
  except?: string,
): { refused: boolean; clash: TakenRange } | null {
  const taken = takenRanges(document, experiment.layer, now, {
    drafts: false,
    audience: experiment.audience,
    ...(except === undefined ? {} : { except }),
  });
  const clash = taken.find((other) => rangesOverlap([other.from, other.to], range));
  if (clash === undefined) return null;
  return { refused: holdsVisitors(experiment, now), clash };
}

/** The free stretches of a layer between what is taken, each [from, to). */
export function freeRanges(taken: readonly TakenRange[]): [number, number][] {
  const free: [number, number][] = [];
  let at = 0;
  for (const range of taken) {
    if (range.from > at) free.push([at, range.from]);
    at = Math.max(at, range.to);
  }
  if (at < 1) free.push([at, 1]);
  // Float edges (0.30000000000000004) are no free space.
  return free.filter(([from, to]) => to - from > 1e-9);
}

/** The widest free stretch, offered to a new experiment; null when the layer is full. */
export function widestFree(taken: readonly TakenRange[]): [number, number] | null {
  let best: [number, number] | null = null;
  for (const range of freeRanges(taken)) {
    // Wider by more than a float's error: of two as wide, the first.
    if (!best || range[1] - range[0] > best[1] - best[0] + 1e-9) best = range;
  }
  return best;
}

/** Whether [from, to) lies within one free stretch. */
export function fitsFree(taken: readonly TakenRange[], from: number, to: number): boolean {
  return freeRanges(taken).some(([a, b]) => from >= a - 1e-9 && to <= b + 1e-9);
}

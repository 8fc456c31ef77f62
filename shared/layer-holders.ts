import type { ExperimentDocument } from './config/experiments';
import { DEFAULT_DRAIN_DAYS } from './experiments';

const DAY_MS = 86_400_000;

/**
 * Whether an experiment can still put a visitor in one of its variants, and so holds its range of
 * its layer and the slots it changes (docs/experiments.md, "Start, pause, stop"): running and
 * paused ones (exposed visitors keep their variant; a paused one may resume), a shipped one
 * rolling its variant out, and an ended one while its exposed visitors keep their variant (its
 * drain days; without `now`, until archived). A draft holds nothing yet.
 *
 * The one rule of who holds a layer: the worker's validator refuses two holders whose ranges
 * overlap and whose audiences can meet (worker/experiments/config/validate.ts), and the console's
 * forms refuse exactly those (console/experiments/layer-space.ts), so neither refuses what the
 * other accepts.
 */
export function holdsVisitors(
  experiment: Pick<ExperimentDocument, 'status' | 'decision' | 'endedAt' | 'drainDays'>,
  now?: Date,
): boolean {
  const { status } = experiment;
  if (status === 'running' || status === 'paused') return true;
  if (status === 'draft' || status === 'archived') return false;
  if (status === 'shipped' && experiment.decision?.action === 'roll_out') return true;
  if (now === undefined || experiment.endedAt === undefined) return true;
  const drainDays = experiment.drainDays ?? DEFAULT_DRAIN_DAYS;
  return now.getTime() < Date.parse(experiment.endedAt) + drainDays * DAY_MS;
}

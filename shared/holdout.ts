import type { ExperimentsDocument } from './config/experiments';
import type { HoldoutDocument } from './config/holdout';

/**
 * What the holdout covers (docs/experiments.md, "What it covers"), apart from its schema
 * (shared/config/holdout.ts), so the console reads it without the validator's code.
 */

/**
 * Whether the holdout covers what came into effect at `since` (an experiment's start, a route's
 * first publish, the split's phase): while it took new ones, at or after its start and before its
 * analysis period. Nothing is covered once it ended, nor what has no stamp (it came before any
 * holdout). The worker's draw (worker/experiments/holdout/holdout.ts) and the console's Holdout card
 * read it alike.
 */
export function coversSince(holdout: HoldoutDocument, since: string | undefined): boolean {
  if (holdout.status === 'ended' || since === undefined) return false;
  const at = Date.parse(since);
  if (at < Date.parse(holdout.startedAt)) return false;
  return holdout.analysisFrom === undefined || at < Date.parse(holdout.analysisFrom);
}

/** What a person may do with the holdout: the console's Holdout card and `npm run experiments -- holdout`. */
export const HOLDOUT_MOVES = ['start', 'analysis', 'end'] as const;
export type HoldoutMove = (typeof HOLDOUT_MOVES)[number];

/**
 * The experiments section with the holdout moved at `now`, or why it cannot be: a running one
 * cannot start again, and only a running (or analysed) one moves on. Whether the move is allowed
 * against the live config is the publish's check.
 */
export function movedHoldout(
  experiments: ExperimentsDocument,
  command: {
    move: HoldoutMove;
    percent: number | null;
    /** A new holdout's seed (its draw); the others keep theirs. */
    seed: string;
  },
  now: Date,
): { ok: true; value: ExperimentsDocument } | { ok: false; error: string } {
  const at = now.toISOString();
  const was = experiments.holdout;
  const holding = was !== undefined && was.status !== 'ended';
  let holdout: HoldoutDocument;
  if (command.move === 'start') {
    if (holding) return { ok: false, error: `holdout ${was.seed} is ${was.status}: end it first` };
    holdout = {
      seed: command.seed,
      percent: command.percent ?? 5,
      status: 'running',
      startedAt: at,
    };
  } else if (!holding) {
    return { ok: false, error: 'no holdout runs: start one first' };
  } else if (command.move === 'analysis') {
    if (was.status === 'analysis')
      return { ok: false, error: `holdout ${was.seed} is in analysis since ${was.analysisFrom}` };
    holdout = { ...was, status: 'analysis', analysisFrom: at };
  } else {
    holdout = { ...was, status: 'ended', endedAt: at };
  }
  return { ok: true, value: { ...experiments, holdout } };
}

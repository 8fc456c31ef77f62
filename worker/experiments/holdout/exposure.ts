import type { ExperimentsDocument } from '../../../shared/config/experiments';
import type { ExperimentArm } from '../store/every-experiment-statements';
import type { HoldoutGroup } from './draw';

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

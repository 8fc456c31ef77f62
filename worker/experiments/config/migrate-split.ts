import {
  type ExperimentDocument,
  type ExperimentVariantDocument,
  SPLIT_EXPERIMENT_ID,
} from '../../../shared/experiments';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import type { SplitConfig } from '../../config/schema';
import { flowNameOf } from '../../funnel/flow';

/**
 * Today's split test read as what it is, one experiment of the flow layer (SPLIT_EXPERIMENT_ID):
 * its variants each walk their flow, the default variant is the control (which, unlike any other
 * experiment's, names a flow too: today's default variant walks its own), it takes the routes the
 * split names, all of the layer, every visitor. Its phase is the split's, so its exposures and
 * results go on where they were. Nothing a visitor sees changes: the same weights pick the same
 * shares, and a visitor holding `gf_variant` keeps it (worker/middleware/experiments.ts).
 */
export function experimentFromSplit(split: SplitConfig): ExperimentDocument {
  const variants: Record<string, ExperimentVariantDocument> = {};
  for (const [key, variant] of Object.entries(split.variants)) {
    variants[key] = {
      weight: variant.weight,
      // The control too: the split's default variant walks its own flow, whatever the route's.
      change: { flow: flowNameOf(split, key) },
    };
  }
  return {
    name: 'Whole-flow split',
    status: 'running',
    layer: 'flow',
    audience: { routes: split.routes ?? [DEFAULT_ROUTE_ID] },
    coverage: 1,
    seed: SPLIT_EXPERIMENT_ID,
    phase: split.phase ?? 1,
    control: split.defaultVariant,
    variants,
    metrics: {
      primary: split.experiment?.primaryMetric,
      plannedPerArm: split.experiment?.plannedPerArm,
    },
  };
}

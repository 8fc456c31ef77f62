import {
  type ExperimentDocument,
  type ExperimentVariantDocument,
  SPLIT_EXPERIMENT_ID,
} from '../../../shared/experiments';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import type { SplitConfig } from '../../config/schema';
import { flowNameOf } from '../../funnel/flow';

/**
 * Today's split test read as an experiment of the flow layer (shared/experiments.ts
 * SPLIT_EXPERIMENT_ID), so the validator and the edge treat it like any other: it takes the whole
 * layer ([0, 1], every visitor of its routes), runs in the phase the split's publishes stamped,
 * and each variant but the default one changes the flow to the one it names (SPEC.md §4: the key
 * with '/' read as '_' unless it names one). The default variant is the control: it changes
 * nothing, so its visitors walk their route's flow, which the migrated `default` route sets to
 * the default variant's flow (validate.ts warns where a route of the split walks another one).
 *
 * Its seed is its id: fixed for the split's life, like any experiment's, and never shared with a
 * layer's seed (those are the layers' names unless set).
 */
export function experimentFromSplit(split: SplitConfig): ExperimentDocument {
  const variants: Record<string, ExperimentVariantDocument> = {};
  for (const [key, variant] of Object.entries(split.variants)) {
    variants[key] = {
      weight: variant.weight,
      change: key === split.defaultVariant ? {} : { flow: flowNameOf(split, key) },
    };
  }
  const { primaryMetric, plannedPerArm } = split.experiment ?? {};
  return {
    name: 'Split test',
    status: 'running',
    layer: 'flow',
    range: [0, 1],
    audience: { routes: [...(split.routes ?? [DEFAULT_ROUTE_ID])] },
    coverage: 1,
    seed: SPLIT_EXPERIMENT_ID,
    phase: split.phase ?? 1,
    control: split.defaultVariant,
    variants,
    ...(primaryMetric === undefined && plannedPerArm === undefined
      ? {}
      : {
          metrics: {
            ...(primaryMetric === undefined ? {} : { primary: primaryMetric }),
            ...(plannedPerArm === undefined ? {} : { plannedPerArm }),
          },
        }),
  };
}

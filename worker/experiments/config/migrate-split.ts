import type {
  ExperimentDocument,
  ExperimentVariantDocument,
} from '../../../shared/config/experiments';
import type { SplitDocument } from '../../../shared/config/split';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import { flowNameOf } from '../../funnel/flow';

/**
 * Today's split test read as an experiment of the flow layer (shared/experiments.ts
 * SPLIT_EXPERIMENT_ID), so the validator and the edge treat it like any other: it takes the whole
 * layer ([0, 1], every visitor of its routes), runs in the phase the split's publishes stamped,
 * and each variant walks the flow it names (SPEC.md §4: the key with '/' read as '_' unless it
 * names one). The default variant is the control and, unlike any other experiment's control,
 * names its flow too: today its visitors walk that flow whatever their route's, and nothing a
 * visitor sees may change with the migration.
 *
 * Its seed is its id: fixed for the split's life, like any experiment's, and never shared with a
 * layer's seed (those are the layers' names unless set).
 */
export function experimentFromSplit(split: SplitDocument): ExperimentDocument {
  const variants: Record<string, ExperimentVariantDocument> = {};
  for (const [key, variant] of Object.entries(split.variants)) {
    variants[key] = {
      weight: variant.weight,
      // The control too: today's default variant walks its own flow, whatever the route's.
      change: { flow: flowNameOf(split, key) },
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

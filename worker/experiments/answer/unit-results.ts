import type {
  ExperimentResultsAnswer,
  SegmentDimension,
} from '../../../shared/console-api/experiment-results';
import type { FunnelConfig } from '../../config/load';
import type { Bindings } from '../../env';
import type { ExperimentDesign } from '../design/experiment-design';
import { experimentStores, readExperimentRows } from '../store/experiment-stores';
import { buildExperimentResults } from './experiment-answer';

/**
 * The results of a unit the shards count as an experiment's arms though no experiment names it:
 * the holdout's groups (worker/experiments/holdout/), a ramped route's bands
 * (worker/experiments/ramps/route-ramp.ts). Its one phase, read with `design` as an experiment's
 * are (experiment-answer.ts), split by `segment` if asked.
 */
export async function unitResults(
  env: Bindings,
  config: FunnelConfig,
  unit: string,
  design: ExperimentDesign,
  options: { now: number; segment?: SegmentDimension | undefined },
): Promise<ExperimentResultsAnswer> {
  const stores = experimentStores(env);
  const { rows, phases } = await readExperimentRows(stores, unit, 1, options.segment ?? 'none');
  return buildExperimentResults({
    design,
    rows,
    phase: 1,
    phases,
    configVersion: config.version,
    now: options.now,
    routeVisits: null,
    ...(options.segment === undefined ? {} : { segment: options.segment }),
  });
}

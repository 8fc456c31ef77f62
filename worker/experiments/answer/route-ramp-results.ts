import type { RampDocument } from '../../../shared/config/ramp';
import type {
  ExperimentResultsAnswer,
  SegmentDimension,
} from '../../../shared/console-api/experiment-results';
import type { FunnelConfig } from '../../config/load';
import type { Bindings } from '../../env';
import { type ExperimentDesign, matureAfterDays, metricsAfter } from '../design/experiment-design';
import { DEFAULT_TUNED_PER_ARM, rampReadingOf, rampStatusOf } from '../ramps/ramp-status';
import { rampedRoute, routeRampUnit } from '../ramps/route-ramp';
import { unitResults } from './unit-results';

/**
 * A ramped route's results (docs/routes.md, "A new route on a ramp"): its band against the band
 * kept on the route the router picks next, read as an experiment's two arms are
 * (experiment-answer.ts), the fallback as the control, with the ramp's state and guardrails as
 * the cron's engine reads them. So the cron judges a route's ramp on the very counts and tests
 * an experiment ramp's are judged on.
 */

/** How a route's ramp is read: two arms of equal share, the fallback the control. */
function routeRampDesign(id: string, ramp: RampDocument): ExperimentDesign {
  return {
    id: routeRampUnit(id),
    name: `Route ${id} on a ramp`,
    status: ramp.state.status,
    layer: 'route',
    control: 'fallback',
    names: { fallback: 'Without the route (its fallback)', route: `Route ${id}` },
    shares: { fallback: 0.5, route: 0.5 },
    primaryMetric: 'purchase',
    plannedPerArm: DEFAULT_TUNED_PER_ARM,
    // Exposed on the page where the route is chosen: every step after it is the route's.
    triggers: [],
    metricsShown: metricsAfter([]),
    priceTest: false,
    matureAfterDays: matureAfterDays({ variants: { fallback: { weight: 1, change: {} } } }),
    reachShare: 2 * (ramp.steps[ramp.state.step]?.coverage ?? 0),
  };
}

/** Route `id`'s ramp results at `now`; null when the route has no ramp. */
export async function routeRampResults(
  env: Bindings,
  config: FunnelConfig,
  id: string,
  options: { now: number; segment?: SegmentDimension | undefined },
): Promise<ExperimentResultsAnswer | null> {
  const route = rampedRoute(config.routing, id);
  if (route === null) return null;
  const answer = await unitResults(
    env,
    config,
    routeRampUnit(id),
    routeRampDesign(id, route.ramp),
    options,
  );
  const live = { ramp: route.ramp, since: undefined };
  const reading = rampReadingOf(live, DEFAULT_TUNED_PER_ARM, answer, options.now);
  return reading === null ? answer : { ...answer, ramp: rampStatusOf(route.ramp, reading) };
}

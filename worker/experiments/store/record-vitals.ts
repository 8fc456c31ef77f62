import { VITAL_METRICS, type VitalMetric, vitalsArms } from '../../../shared/analytics/vitals';
import type { QueuedEvent } from '../../collector/queued-event';
import { bucketOf } from '../statistics/vitals-histogram';
import { type ExperimentStores, toEachShard } from './experiment-stores';
import type { VitalsSample } from './vitals-statements';

/**
 * A `web_vitals` event the collector took (worker/collector/vitals-intake.ts) as a sample of its
 * visitor's; null when it names no arm or carries no value.
 */
export function vitalsSampleOf({ event }: QueuedEvent): VitalsSample | null {
  const arms = vitalsArms(event.event_properties);
  const buckets: Partial<Record<VitalMetric, number>> = {};
  for (const metric of VITAL_METRICS) {
    const value = event.event_properties[metric];
    if (typeof value === 'number') buckets[metric] = bucketOf(metric, value);
  }
  if (arms.length === 0 || Object.keys(buckets).length === 0) return null;
  return { visitorId: event.device_id.toLowerCase(), arms, buckets };
}

/**
 * Into each visitor's shard, one request per shard. Only every experiment's tables count vitals:
 * the split's visitors from before them (EVENTS_DB) have no arm row to count them in.
 */
export async function recordVitals(
  stores: ExperimentStores,
  samples: readonly VitalsSample[],
): Promise<void> {
  await toEachShard(
    stores,
    samples,
    (sample) => sample.visitorId,
    (shard, group) => shard.recordVitals(group),
  );
}

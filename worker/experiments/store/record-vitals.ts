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
  return { visitorId: event.device_id.toLowerCase(), arms, buckets, at: event.time };
}

/**
 * Into each visitor's shard, one request per shard. Only every experiment's tables count vitals:
 * the split's visitors from before them (EVENTS_DB) have no arm row to count them in. A visitor
 * counts their first page's values (vitals-statements.ts), so a batch's samples go in the order
 * their pages reported, not the order they reached the queue: two pages' reports, sent a moment
 * apart, pass the collector's checks concurrently and may be queued the other way round. A later
 * page's report in an earlier batch still counts first.
 */
export async function recordVitals(
  stores: ExperimentStores,
  samples: readonly VitalsSample[],
): Promise<void> {
  await toEachShard(
    stores,
    [...samples].sort((a, b) => a.at - b.at),
    (sample) => sample.visitorId,
    (shard, group) => shard.recordVitals(group),
  );
}

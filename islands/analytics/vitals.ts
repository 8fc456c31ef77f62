import { type Metric, onCLS, onINP, onLCP } from 'web-vitals';
import type { PageVitals } from '../../shared/analytics/tracking';
import {
  sentValue,
  VITAL_METRICS,
  VITALS_ARM_PREFIX,
  VITALS_TICKET_PROPERTY,
  type VitalMetric,
  vitalRating,
} from '../../shared/analytics/vitals';

/**
 * The page's field Core Web Vitals, measured with Google's `web-vitals` (standard build) from
 * the tracker's late chunk: its observers read buffered entries, so LCP and CLS are whole
 * however late they start; INP sees every interaction from then on, and before it the first
 * input and the slow ones (the browser buffers event timings of 104 ms and more). One
 * `web_vitals` event per page view, the first time the page is left or hidden, in the batch the
 * tracker sends then (its beacon): no request of its own.
 */

type Values = Partial<Record<VitalMetric, number>>;

/** The event's properties: each value known, its rating, the page's arms and its ticket. */
export function vitalsProperties(
  values: Values,
  { arms, ticket }: PageVitals,
): Record<string, string | number> | null {
  const properties: Record<string, string | number> = {};
  for (const metric of VITAL_METRICS) {
    const raw = values[metric];
    const value = raw === undefined ? null : sentValue(metric, raw);
    if (value === null) continue;
    properties[metric] = value;
    properties[`${metric}_rating`] = vitalRating(metric, value);
  }
  if (Object.keys(properties).length === 0) return null;
  for (const [experiment, variant] of Object.entries(arms)) {
    properties[`${VITALS_ARM_PREFIX}${experiment}`] = variant;
  }
  properties[VITALS_TICKET_PROPERTY] = ticket;
  return properties;
}

/**
 * Every change reported as it happens, so the values are current whenever the page is left: a
 * navigation fires pagehide before visibilitychange, and the library finishes its own reports on
 * the latter only, after the tracker's beacon on the former has gone. What the page's observers
 * have not yet been handed by then (the interaction that left the page) is not in the event.
 */
const ALL_CHANGES = { reportAllChanges: true };

/**
 * Starts the observers; `take()` returns the event's properties once (null when nothing was
 * measured, or already taken). On a tab hidden first, the library's own hidden listeners (window,
 * capture phase) run before the tracker's, so the take has the final values. Never throws: a browser without the APIs measures nothing.
 */
export function measureVitals(vitals: PageVitals): { take: () => Record<string, unknown> | null } {
  const values: Values = {};
  const keep = (metric: Metric) => {
    values[metric.name.toLowerCase() as VitalMetric] = metric.value;
  };
  try {
    onLCP(keep, ALL_CHANGES);
    onINP(keep, ALL_CHANGES);
    onCLS(keep, ALL_CHANGES);
  } catch (error) {
    // A browser without the APIs measures nothing; the tracker goes on.
    console.warn('[analytics] vitals not measured', error);
  }
  let taken = false;
  return {
    take() {
      if (taken) return null;
      const properties = vitalsProperties(values, vitals);
      if (properties !== null) taken = true;
      return properties;
    },
  };
}

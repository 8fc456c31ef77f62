/**
 * The field Core Web Vitals a sampled page reports (islands/analytics/vitals.ts) in one
 * `web_vitals` event, and the rules the collector holds it to (worker/collector/vitals-intake.ts).
 * Values as Google's `web-vitals` library reports them: LCP and INP in milliseconds, CLS a
 * unitless layout-shift score. The thresholds are the library's (`LCPThresholds`,
 * `INPThresholds`, `CLSThresholds`, web.dev/articles/vitals): at or below the first a value is
 * good, above the second poor.
 */

export const VITALS_EVENT = 'web_vitals';

export const VITAL_METRICS = ['lcp', 'inp', 'cls'] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];

export const VITAL_RATINGS = ['good', 'needs-improvement', 'poor'] as const;
export type VitalRating = (typeof VITAL_RATINGS)[number];

interface VitalRule {
  /** good ≤ thresholds[0] < needs improvement ≤ thresholds[1] < poor. */
  thresholds: readonly [number, number];
  /**
   * The largest value taken. A page kept open for minutes can grow an LCP or CLS past anything a
   * visitor would wait for; the page clamps to this, the collector refuses more.
   */
  max: number;
}

export const VITAL_RULES: Record<VitalMetric, VitalRule> = {
  lcp: { thresholds: [2500, 4000], max: 120_000 },
  inp: { thresholds: [200, 500], max: 60_000 },
  cls: { thresholds: [0.1, 0.25], max: 10 },
};

export function vitalRating(metric: VitalMetric, value: number): VitalRating {
  const [good, poor] = VITAL_RULES[metric].thresholds;
  if (value <= good) return 'good';
  return value <= poor ? 'needs-improvement' : 'poor';
}

/**
 * A value as sent: finite, clamped into 0…max, LCP and INP to whole milliseconds, CLS to four
 * decimals (the shifts are fractions of the viewport; more digits are noise). Null for a value
 * that is not a finite number.
 */
export function sentValue(metric: VitalMetric, value: number): number | null {
  if (!Number.isFinite(value)) return null;
  const clamped = Math.min(Math.max(value, 0), VITAL_RULES[metric].max);
  return metric === 'cls' ? Math.round(clamped * 10_000) / 10_000 : Math.round(clamped);
}

/**
 * The event's property naming the visitor's arm in an experiment: `exp_<experiment>` = variant,
 * as the heatmap's tags (shared/analytics/heatmap.ts) name them.
 */
export const VITALS_ARM_PREFIX = 'exp_';

/**
 * The event's property holding the page's ticket (PageVitals.ticket), which the collector takes
 * as proof that the worker served the page to the visitor reporting it.
 */
export const VITALS_TICKET_PROPERTY = 'vitals_ticket';

/** At most this many arms on one event: one per layer, and there are five layers. */
export const VITALS_MAX_ARMS = 8;

/**
 * The arms a taken vitals event names, experiment id → variant: its `exp_<id>` properties that
 * hold a text (the collector checked them: worker/collector/vitals-intake.ts).
 */
export function vitalsArms(
  properties: Readonly<Record<string, unknown>>,
): { experiment: string; variant: string }[] {
  return Object.entries(properties).flatMap(([key, value]) =>
    key.startsWith(VITALS_ARM_PREFIX) && typeof value === 'string'
      ? [{ experiment: key.slice(VITALS_ARM_PREFIX.length), variant: value }]
      : [],
  );
}

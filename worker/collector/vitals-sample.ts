import type { PageVitals } from '../../shared/analytics/tracking';
import { fnv1a } from '../experiments/assignment/visitor-shard';

/**
 * Which visitors report their field Core Web Vitals (docs/analytics.md, "Field vitals"): a fixed
 * share, by a hash of the visitor id, so a visitor is in or out for every page of every visit and
 * the volume stays bounded (a tenth of the visitors: one small event per page of theirs).
 * `VITALS_SAMPLE_RATE` sets the share, 0 to 1 (0 stops it; a test sets 1); unset or not a number,
 * the default.
 */
export const DEFAULT_VITALS_SAMPLE_RATE = 0.1;

/** The hash's resolution: shares in steps of 1/10 000. */
const STEPS = 10_000;

/** Salted, so the sample is drawn apart from the shards (fnv1a of the bare id). */
const SALT = fnv1a('web-vitals:');

export function vitalsSampleRate(env: { VITALS_SAMPLE_RATE?: string }): number {
  const text = env.VITALS_SAMPLE_RATE?.trim();
  const rate = text === undefined || text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(rate)) return DEFAULT_VITALS_SAMPLE_RATE;
  return Math.min(1, Math.max(0, rate));
}

/** Whether the visitor (the lower-case userUuid) is in a sample of `rate`. */
export function inVitalsSample(visitorId: string, rate: number): boolean {
  return fnv1a(visitorId.toLowerCase(), SALT) % STEPS < Math.round(rate * STEPS);
}

/**
 * What a page hands its tracker about vitals: nothing outside the sample (the arms are worked out
 * only for a page inside it).
 */
export function pageVitals(
  env: { VITALS_SAMPLE_RATE?: string },
  visitorId: string,
  arms: () => readonly { experiment: string; variant: string }[],
): PageVitals | undefined {
  if (!inVitalsSample(visitorId, vitalsSampleRate(env))) return undefined;
  return {
    arms: Object.fromEntries(arms().map(({ experiment, variant }) => [experiment, variant])),
  };
}

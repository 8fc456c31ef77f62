import type { CollectedEvent } from '../../shared/analytics/batch';
import {
  VITAL_METRICS,
  VITAL_RATINGS,
  VITAL_RULES,
  VITALS_ARM_PREFIX,
  VITALS_EVENT,
  VITALS_MAX_ARMS,
  vitalRating,
} from '../../shared/analytics/vitals';
import { inVitalsSample } from './vitals-sample';

/**
 * What the collector takes of `web_vitals` events (docs/analytics.md, "Field vitals"). Anyone can
 * post to `/e`, and these numbers feed the experiments' guardrails, so an event is taken only
 * when everything in it is what the page's tracker sends, and dropped whole otherwise (its batch
 * is still taken, as an event with an impossible clock is):
 *
 * - from a visitor cookie in the sample (vitals-sample.ts): the request's visitor, never the
 *   body's, as for every event; without a cookie there is no visitor to count them for;
 * - at least one of lcp, inp, cls, each a finite number from 0 to its maximum
 *   (shared/analytics/vitals.ts), with its rating, which must be the one its value has;
 *   a rating without its value, an unknown rating, a value as text: refused;
 * - at most VITALS_MAX_ARMS `exp_` arms, each a variant key (letters, digits, `:_-`, 64 at most);
 *   which of them count is the visitor's own exposure rows' say
 *   (worker/experiments/store/vitals-statements.ts);
 * - at most MAX_PROPERTIES properties: the page's (about 20) and these.
 */

const MAX_PROPERTIES = 48;

/** As shared/config/experiments.ts variantKey. */
const VARIANT_KEY = /^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/;

/** Experiment ids as the config takes them: no longer than this. */
const EXPERIMENT_ID_MAX = 64;

type Properties = CollectedEvent['event_properties'];

function metricsValid(properties: Properties): boolean {
  let measured = 0;
  for (const metric of VITAL_METRICS) {
    const value = properties[metric];
    const rating = properties[`${metric}_rating`];
    if (value === undefined && rating === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return false;
    if (value < 0 || value > VITAL_RULES[metric].max) return false;
    if (typeof rating !== 'string' || !(VITAL_RATINGS as readonly string[]).includes(rating)) {
      return false;
    }
    if (rating !== vitalRating(metric, value)) return false;
    measured++;
  }
  return measured > 0;
}

function armsValid(properties: Properties): boolean {
  let arms = 0;
  for (const [key, value] of Object.entries(properties)) {
    if (!key.startsWith(VITALS_ARM_PREFIX)) continue;
    const experiment = key.slice(VITALS_ARM_PREFIX.length);
    if (experiment === '' || experiment.length > EXPERIMENT_ID_MAX) return false;
    if (typeof value !== 'string' || !VARIANT_KEY.test(value)) return false;
    arms++;
  }
  return arms <= VITALS_MAX_ARMS;
}

/** Whether a `web_vitals` event may be taken from this visitor (null: no visitor cookie). */
export function vitalsEventValid(
  event: CollectedEvent,
  visitorId: string | null,
  sampleRate: number,
): boolean {
  if (visitorId === null || !inVitalsSample(visitorId, sampleRate)) return false;
  const properties = event.event_properties;
  if (Object.keys(properties).length > MAX_PROPERTIES) return false;
  return metricsValid(properties) && armsValid(properties);
}

/** The batch without the vitals events it may not take, and how many those were. */
export function withValidVitals(
  events: readonly CollectedEvent[],
  visitorId: string | null,
  sampleRate: number,
): { events: CollectedEvent[]; dropped: number } {
  const kept = events.filter(
    (event) => event.event_type !== VITALS_EVENT || vitalsEventValid(event, visitorId, sampleRate),
  );
  return { events: kept, dropped: events.length - kept.length };
}

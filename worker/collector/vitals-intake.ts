import type { CollectedEvent } from '../../shared/analytics/batch';
import {
  VITAL_METRICS,
  VITAL_RATINGS,
  VITAL_RULES,
  VITALS_ARM_PREFIX,
  VITALS_EVENT,
  VITALS_MAX_ARMS,
  VITALS_TICKET_PROPERTY,
  vitalRating,
} from '../../shared/analytics/vitals';
import { VITALS_PER_BATCH } from './intake-limits';
import { ticketPageView } from './vitals-sample';

/**
 * What the collector takes of `web_vitals` events (docs/analytics.md, "Field vitals"). Anyone can
 * post to `/e`, and these numbers feed the experiments' guardrails, so an event is taken only
 * when everything in it is what the page's tracker sends, and dropped whole otherwise (its batch
 * is still taken, as an event with an impossible clock is):
 *
 * - with the ticket of a page the worker served to the request's visitor (its uuid cookie, never
 *   the body's) within a day (./vitals-sample.ts): the worker drew that page into the sample;
 *   without a cookie there is no visitor to count them for. The event keeps the page view as its
 *   insert_id, so the collector takes one report per page view however often it is sent, and
 *   leaves the ticket behind;
 * - at least one of lcp, inp, cls, each a finite number from 0 to its maximum
 *   (shared/analytics/vitals.ts), with its rating, which must be the one its value has;
 *   a rating without its value, an unknown rating, a value as text: refused;
 * - at most VITALS_MAX_ARMS `exp_` arms, each a variant key (letters, digits, `:_-`, 64 at most);
 *   which of them count is the visitor's own exposure rows' say
 *   (worker/experiments/store/vitals-statements.ts);
 * - at most MAX_PROPERTIES properties: the page's (about 20) and these;
 * - at most VITALS_PER_BATCH in a batch, and only while the address is within its vitals limit
 *   (./intake-limits.ts vitalsBatchesPerIp), which collect-route.ts asks.
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

function shapeValid(properties: Properties): boolean {
  return (
    Object.keys(properties).length <= MAX_PROPERTIES &&
    metricsValid(properties) &&
    armsValid(properties)
  );
}

/** Who sent the batch, as the collector knows it: the uuid cookie's visitor and the signing key. */
export interface VitalsSender {
  visitorId: string | null;
  key: string | null;
}

/**
 * The `web_vitals` event as it is kept (its page view as insert_id, without the ticket), or null
 * when it may not be taken from this sender.
 */
export async function takenVitals(
  event: CollectedEvent,
  sender: VitalsSender,
  now: number,
): Promise<CollectedEvent | null> {
  const { visitorId, key } = sender;
  if (visitorId === null || key === null || !shapeValid(event.event_properties)) return null;
  const { [VITALS_TICKET_PROPERTY]: ticket, ...properties } = event.event_properties;
  const pageView = await ticketPageView(key, visitorId, ticket, now);
  if (pageView === null) return null;
  return { ...event, insert_id: `${VITALS_EVENT}:${pageView}`, event_properties: properties };
}

/**
 * The batch with the vitals events it may take, as kept, and how many it dropped. Only the first
 * VITALS_PER_BATCH are looked at: a batch of forged tickets costs a signature check each, and a
 * tracker never sends more.
 */
export async function withValidVitals(
  events: readonly CollectedEvent[],
  sender: VitalsSender,
  now: number,
): Promise<{ events: CollectedEvent[]; dropped: number }> {
  let vitals = 0;
  const kept: CollectedEvent[] = [];
  for (const event of events) {
    if (event.event_type !== VITALS_EVENT) {
      kept.push(event);
      continue;
    }
    vitals++;
    const taken = vitals <= VITALS_PER_BATCH ? await takenVitals(event, sender, now) : null;
    if (taken !== null) kept.push(taken);
  }
  return { events: kept, dropped: events.length - kept.length };
}

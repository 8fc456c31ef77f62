import type { CollectedEvent } from '../../shared/analytics/batch';
import type { TrackingData } from '../../shared/analytics/tracking';
import type { InAppBrowser } from '../../shared/in-app-browser';

export type PropertyValue = CollectedEvent['event_properties'][string];
export type EventProperties = Record<string, PropertyValue>;

/** SPEC.md §9 property limit and string truncation (ANALYTICS_LIMITS). */
export interface PropertyLimits {
  propertyLimit: number;
  stringLimit: number;
}

/** The collector's rules for names and keys (shared/analytics/batch.ts). */
const EVENT_NAME = /^[a-z0-9_-]{1,128}$/i;
const KEY_LIMIT = 256;
const DEVICE_ID_LIMIT = 64;
const USER_ID_LIMIT = 128;

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const code = text.charCodeAt(limit - 1);
  // Never end on the first half of a surrogate pair (an emoji cut in two).
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

function stringify(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A cycle or a BigInt inside.
    return String(value);
  }
}

/**
 * A value as the collector takes it: strings cut at the limit, numbers only finite, objects and
 * arrays as JSON text (then cut); undefined, functions and symbols have no value to send.
 */
export function capValue(value: unknown, stringLimit: number): PropertyValue | undefined {
  switch (typeof value) {
    case 'string':
      return cut(value, stringLimit);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return cut(String(value), stringLimit);
    case 'object':
      return value === null ? null : cut(stringify(value), stringLimit);
    default:
      return undefined;
  }
}

/**
 * The page's own properties first (screen_name and the rest, which an event cannot override),
 * then the event's, until the property limit: those beyond it are dropped.
 */
export function eventProperties(
  page: EventProperties,
  own: Record<string, unknown> | undefined,
  limits: PropertyLimits,
): EventProperties {
  const properties: EventProperties = {};
  let count = 0;
  const put = (key: string, raw: unknown) => {
    if (count >= limits.propertyLimit || key.length > KEY_LIMIT || key === '__proto__') return;
    if (Object.hasOwn(properties, key)) return;
    const value = capValue(raw, limits.stringLimit);
    if (value === undefined) return;
    properties[key] = value;
    count++;
  };
  for (const [key, value] of Object.entries(page)) put(key, value);
  for (const [key, value] of Object.entries(own ?? {})) put(key, value);
  return properties;
}

/**
 * SPEC.md §3 "Tracking user data sent with events", flat: the ids (appsflyer_id, google_*,
 * fb_pixel_id or tt_pixel_id) and the user_data fields side by side. Empty ones are left out.
 */
function trackingProperties(tracking: TrackingData | null): EventProperties {
  if (!tracking) return {};
  const { user_data: userData, ...ids } = tracking;
  const flat: EventProperties = {};
  for (const [key, value] of [...Object.entries(ids), ...Object.entries(userData ?? {})]) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      flat[key] = value;
    }
  }
  return flat;
}

/** What every event of a page carries (SPEC.md §3: event properties always include screen_name). */
export interface PageFacts {
  /** The screen id; empty on a page that has none. */
  screen: string;
  /** location.pathname, for SPEC.md §3's "or the path without its leading slash". */
  path: string;
  variant: string;
  flow: string;
  configVersion: string;
  /** The visitor's route and the source of their visit, kept for the visit. */
  route: string;
  source: string;
  /** The ad app whose own browser shows the page, or null. */
  inApp: InAppBrowser | null;
  tracking: TrackingData | null;
  /** The visitor's quiz answers, as the worker hands them for the analytics (`quiz_who`). */
  answers?: Readonly<Record<string, string | number>>;
}

export function screenName(screen: string, path: string): string {
  return screen || path.replace(/^\//, '');
}

export function pageProperties(page: PageFacts): EventProperties {
  return {
    screen_name: screenName(page.screen, page.path),
    variant: page.variant,
    flow: page.flow,
    config_version: page.configVersion,
    // Which funnel the visitor was routed to, and why: Amplitude breaks a campaign down by them.
    route: page.route,
    // Not `source`: the worker sets that property to who vouches for the event (browser or
    // server), as server purchases carry the visit's source in `traffic_source` too.
    traffic_source: page.source,
    // Which in-app browser, as `instagram_ios`: marketers see where a funnel loses those visitors.
    ...(page.inApp ? { in_app_browser: `${page.inApp.app}_${page.inApp.os}` } : {}),
    ...page.answers,
    ...trackingProperties(page.tracking),
  };
}

export interface EventIdentity {
  insertId: string;
  sessionId: number;
  deviceId: string;
  userId: string | null;
}

function isEventName(name: string): boolean {
  return EVENT_NAME.test(name);
}

/** One event in the collector's shape; null for a name the collector would refuse. */
export function collectedEvent(
  draft: { name: string; time: number; properties: EventProperties },
  identity: EventIdentity,
): CollectedEvent | null {
  if (!isEventName(draft.name)) return null;
  return {
    event_type: draft.name,
    insert_id: identity.insertId,
    time: Math.max(0, Math.round(draft.time)),
    session_id: identity.sessionId,
    device_id: identity.deviceId.slice(0, DEVICE_ID_LIMIT),
    user_id: identity.userId ? identity.userId.slice(0, USER_ID_LIMIT) : null,
    event_properties: draft.properties,
  };
}

import type { CollectedEvent } from '../../shared/analytics/batch';
import type { TrackingUserData } from '../../shared/analytics/tracking';

type Properties = CollectedEvent['event_properties'];

/**
 * SPEC.md §3 "Tracking user data sent with events": the user_data object's fields. The tracker
 * sends them flat among an event's properties (islands/analytics/build-event.ts: a property is a
 * string, number, boolean or null); the archive and Amplitude get them back as one `user_data`
 * object, so a warehouse reads `user_data.fbc` and an Amplitude chart finds `user_data.fbc`.
 */
export const USER_DATA_KEYS = [
  'uuid',
  'fbc',
  'fbp',
  'fb_click_id',
  'ttp',
  'tt_click_id',
  'source_url',
  'google_click_id',
] as const satisfies readonly (keyof TrackingUserData)[];

/** Every field present, null where the event had none: one shape on every line. */
export type UserData = Record<(typeof USER_DATA_KEYS)[number], string | null>;

const USER_DATA_KEY_SET: ReadonlySet<string> = new Set(USER_DATA_KEYS);

function asText(value: Properties[string] | undefined): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : String(value);
}

/**
 * An event's properties without the user_data fields, and those fields as one object. `uuid` is
 * the visitor uuid, which is the event's `device_id` (event-identity.ts sets both from the
 * request), also on a server purchase, whose properties carry no `uuid`.
 */
export function splitUserData(
  properties: Properties,
  deviceId: string,
): { properties: Properties; userData: UserData } {
  const rest: Properties = {};
  for (const [key, value] of Object.entries(properties)) {
    if (!USER_DATA_KEY_SET.has(key)) rest[key] = value;
  }
  const userData = Object.fromEntries(
    USER_DATA_KEYS.map((key) => [key, asText(properties[key])]),
  ) as UserData;
  userData.uuid ??= deviceId;
  return { properties: rest, userData };
}

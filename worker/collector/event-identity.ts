import type { CollectedEvent } from '../../shared/analytics/batch';

/**
 * Whose events a batch holds is the request's to say, never the body's: anyone can post to `/e`
 * (a script sends whatever `Origin` it likes), so a `device_id` or `user_id` taken from the body
 * would let them write events under another visitor's ids into Amplitude, the archive and the
 * experiments' outcomes.
 */

/** The ids the request vouches for. */
export interface RequestIdentity {
  /**
   * The visitor uuid of the `userUuid` cookie; null when the request has none (cookielessDeviceId).
   */
  deviceId: string | null;
  /** The signed-in user (worker/request/signed-in-user.ts), or null. */
  userId: string | null;
}

/** How many events of a batch claimed other ids than the request's, by field. */
export interface IdentityMismatch {
  device_id: number;
  user_id: number;
}

/**
 * The events with the request's ids (`device_id`, `user_id`, and the `uuid` property of the
 * tracking user data), and how many claimed others. A `user_id` of null claims nobody and stays
 * null: the event happened before its visitor signed up, and each event keeps the user of its
 * moment (docs/analytics.md), though it may be sent after the sign-up. Any other is the
 * session's user, or null when the request is signed in as nobody. Without a visitor cookie every
 * event gets its cookieless device id, which is no mismatch either: the batch simply has no
 * visitor to compare with.
 */
export async function withRequestIdentity(
  events: readonly CollectedEvent[],
  identity: RequestIdentity,
): Promise<{ events: CollectedEvent[]; mismatch: IdentityMismatch }> {
  const mismatch: IdentityMismatch = { device_id: 0, user_id: 0 };
  const own = await Promise.all(
    events.map(async (event) => {
      const claimed = event.device_id.toLowerCase();
      const properties = event.event_properties;
      const claimedUuid =
        typeof properties.uuid === 'string' ? properties.uuid.toLowerCase() : null;
      if (
        identity.deviceId !== null &&
        (claimed !== identity.deviceId ||
          (claimedUuid !== null && claimedUuid !== identity.deviceId))
      ) {
        mismatch.device_id += 1;
      }
      if (event.user_id !== null && event.user_id !== identity.userId) mismatch.user_id += 1;
      const deviceId = identity.deviceId ?? (await cookielessDeviceId(claimed));
      return {
        ...event,
        device_id: deviceId,
        user_id: event.user_id === null ? null : identity.userId,
        // SPEC.md §3's tracking user data rides in the properties, flattened: its `uuid` is the
        // visitor uuid too, and reaches Amplitude and the archive as it is.
        ...('uuid' in properties ? { event_properties: { ...properties, uuid: deviceId } } : {}),
      };
    }),
  );
  return { events: own, mismatch };
}

const LABEL = new TextEncoder().encode('geofunnel cookieless device v1\n');

/**
 * The device id of a batch that came without a visitor cookie (a browser that refuses cookies,
 * whose every page got a fresh uuid): derived from the body's `device_id`, so the events of one
 * page still share one device, but never equal to it. A version-8 uuid (RFC 9562's custom
 * layout) made of SHA-256 of the claimed id: a real visitor's cookie holds a v4, so no body can
 * make its events land on a visitor who has one. `claimed` is lower-cased by the caller.
 */
export async function cookielessDeviceId(claimed: string): Promise<string> {
  const text = new TextEncoder().encode(claimed);
  const input = new Uint8Array(LABEL.byteLength + text.byteLength);
  input.set(LABEL);
  input.set(text, LABEL.byteLength);
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', input)).slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

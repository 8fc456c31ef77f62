import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import type { PortalSend } from '../portal-client/portal-call';

/**
 * Answers geocoding requests in place of the network: the development kit's geocoder
 * (DevKit.geocode), which answers the requests addressed to it and sends any other to Google.
 */
export type GeocoderFetch = (request: Request, env: Bindings) => Promise<Response>;

/** Google's Geocoding API (JSON output). */
const GOOGLE_GEOCODING_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

/** Where requests to the development kit's geocoder go: Google's path on an internal origin. */
export const EMBEDDED_GEOCODER_URL = 'https://geocoder.internal/maps/api/geocode/json';

export type GeocoderTransport =
  | {
      ok: true;
      request: Request;
      send: PortalSend;
      /** Whether Google answers (and bills) it, rather than the development kit. */
      paid: boolean;
      /** The server's key, to keep out of anything logged; null for the development kit. */
      key: string | null;
    }
  | { ok: false };

function geocodingRequest(base: string, address: string, key: string | null): Request {
  const url = new URL(base);
  url.searchParams.set('address', address);
  if (key !== null) url.searchParams.set('key', key);
  return new Request(url, { headers: { accept: 'application/json' } });
}

/**
 * Where a geocoding call goes, as portalTransport decides for the portal: Google with
 * GEOCODING_API_KEY when it is set; else, only in development with the development kit, the
 * kit's geocoder (no key); else nowhere, and the page falls back to the capital.
 */
export function geocoderTransport(
  env: Bindings,
  standIn: GeocoderFetch | undefined,
  address: string,
): GeocoderTransport {
  const key = env.GEOCODING_API_KEY?.trim() || null;
  const send: PortalSend = standIn
    ? (request) => standIn(request, env)
    : (request) => fetch(request);
  if (key !== null) {
    const request = geocodingRequest(GOOGLE_GEOCODING_URL, address, key);
    return { ok: true, request, send, paid: true, key };
  }
  if (!isDevelopment(env) || !standIn) return { ok: false };
  const request = geocodingRequest(EMBEDDED_GEOCODER_URL, address, null);
  return { ok: true, request, send, paid: false, key: null };
}

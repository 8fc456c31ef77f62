import type { PortalSend } from '../api/portal-transport';
import type { Bindings } from '../env';

/** Google's Geocoding API (JSON output). */
const GOOGLE_GEOCODING_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

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
 * Where a geocoding call goes: Google with GEOCODING_API_KEY when it is set; else nowhere, and
 * the page falls back to the capital.
 */
export function geocoderTransport(env: Bindings, address: string): GeocoderTransport {
  const key = env.GEOCODING_API_KEY?.trim() || null;
  if (key === null) return { ok: false };
  const request = geocodingRequest(GOOGLE_GEOCODING_URL, address, key);
  return { ok: true, request, send: (request) => fetch(request), paid: true, key };
}

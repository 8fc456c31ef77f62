import { Coordinates } from '../../shared/api/contract';

/**
 * What came of one geocoding call: the point, or why there is none. `reason` is Google's `status`
 * when it gave one other than OK ('ZERO_RESULTS', 'OVER_QUERY_LIMIT', 'REQUEST_DENIED', …), else
 * ours: 'no_results' (OK with an empty list), 'malformed' (not Google's JSON, or no numeric point),
 * 'http_<status>', 'timeout', 'unreachable', 'not_configured'. `detail` is Google's
 * `error_message`, or the network error.
 */
export type GeocodeReading =
  | { ok: true; location: Coordinates }
  | { ok: false; reason: string; detail?: string };

/** Google's status words are short capitals; anything else is not Google's answer. */
const STATUS = /^[A-Z_]{1,40}$/;

/** A log line keeps this much of Google's `error_message`. */
const DETAIL_MAX = 200;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function failed(reason: string, detail?: unknown): GeocodeReading {
  return typeof detail === 'string' && detail !== ''
    ? { ok: false, reason, detail: detail.slice(0, DETAIL_MAX) }
    : { ok: false, reason };
}

/**
 * Reads the Geocoding API's JSON answer (`status`, `results[].geometry.location`, and on failure
 * `error_message`). SPEC.md §5: it succeeds only when the status is OK and there is at least one
 * result; the first result's point must also be numbers within range (Coordinates), since the
 * map projects it.
 */
export function readGoogleAnswer(httpStatus: number, text: string): GeocodeReading {
  if (httpStatus < 200 || httpStatus > 299) return failed(`http_${httpStatus}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failed('malformed');
  }
  if (!isRecord(json) || typeof json.status !== 'string' || !STATUS.test(json.status)) {
    return failed('malformed');
  }
  if (json.status !== 'OK') return failed(json.status, json.error_message);
  if (!Array.isArray(json.results) || json.results.length === 0) return failed('no_results');
  const [first] = json.results;
  const geometry = isRecord(first) ? first.geometry : undefined;
  const point = Coordinates.safeParse(isRecord(geometry) ? geometry.location : undefined);
  return point.success ? { ok: true, location: point.data } : failed('malformed');
}

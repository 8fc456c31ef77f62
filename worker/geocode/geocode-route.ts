import type { Handler } from 'hono';
import type { GeocodeAnswer } from '../../shared/api/geocode';
import { type LogFields, logError } from '../../shared/log';
import { issueTexts } from '../../shared/validation-issues';
import { allowAreaMap } from '../area-map/area-map-cookie';
import { apiJson, refusal, refuse } from '../http/api-json';
import { exchangeWithPortal, type PortalOutcome } from '../portal-client/portal-call';
import { GEOCODE_RULES, limitRefusal } from '../rate-limits/rate-limit-gate';
import { afterAnswer } from '../request/after-answer';
import { signedCookiesOf } from '../request/cookies';
import type { ApiEnv } from '../request/envs';
import { rateAskerOf } from '../request/visit';
import { cachedLocation, cacheLocation } from './geocode-cache';
import { GeocodeQuery } from './geocode-query';
import { geocoderTransport } from './geocoder-transport';
import { type GeocodeReading, readGoogleAnswer } from './google-answer';

/** The map is not worth a longer wait: past this the page shows the capital. */
const GEOCODING_TIMEOUT_MS = 3_000;

/** SPEC.md §8 Phone and map: what is logged when geocoding gives no result. */
const FAILURE_MESSAGE = 'Geocoding request failed';

function readingOf(outcome: PortalOutcome): GeocodeReading {
  switch (outcome.kind) {
    case 'answered':
      return readGoogleAnswer(outcome.status, outcome.text);
    case 'timed_out':
      return { ok: false, reason: 'timeout' };
    case 'unavailable':
      return { ok: false, reason: 'unreachable', detail: outcome.detail };
  }
}

/** The key is in the URL Google was asked at: whatever is logged is scrubbed of it. */
function withoutKey(text: string | undefined, key: string | null): string | undefined {
  return key === null || text === undefined ? text : text.replaceAll(key, '[key]');
}

/** Marks the request's log line (`fields`) failed, and logs why under the request's id. */
function logFailure(
  request: { fields: LogFields; id: string },
  failure: { reason: string; detail?: string; ms?: number },
  key: string | null = null,
): void {
  request.fields.geocode = 'failed';
  logError('geocoding_failed', {
    id: request.id,
    call: 'geocode',
    message: FAILURE_MESSAGE,
    reason: failure.reason,
    detail: withoutKey(failure.detail, key),
    ms: failure.ms,
  });
}

/**
 * `GET /api/geocode?city=…&country=…` (shared/api/geocode.ts): the point of "<city>, <country>"
 * (SPEC.md §7: an address of two parts), from Google with the server's key, which no page or
 * answer ever carries. In order: the query is checked (400); a point cached within 30 days answers
 * at once; without a key (and outside development) nothing is asked (503); the address's limit is
 * counted (429); Google is asked within GEOCODING_TIMEOUT_MS. Success only with status OK and a
 * result (SPEC.md §5), and the point found is the one the visitor may then have drawn
 * (worker/area-map/); any other end is logged as 'Geocoding request failed' (`geocoding_failed`,
 * with Google's status as `reason`) and answered 502, and the page shows the country's capital.
 */
export function geocodeRoute(): Handler<ApiEnv> {
  return async function geocodeHandler(c) {
    const fields = c.get('logFields');
    fields.call = 'geocode';
    const query = GeocodeQuery.safeParse(c.req.query());
    if (!query.success) {
      const problems = issueTexts(query.error, 'query');
      fields.detail = problems.join('; ');
      return refuse(c, refusal('invalid_request', problems));
    }
    const { city, country } = query.data;
    const origin = new URL(c.req.url).origin;
    const cached = await cachedLocation(origin, city, country);
    if (cached) {
      fields.geocode = 'cache';
      await allowAreaMap(c.env, signedCookiesOf(c), cached);
      return apiJson(c, 200, { location: cached } satisfies GeocodeAnswer);
    }

    const transport = geocoderTransport(c.env, c.get('devKit')?.geocode, `${city}, ${country}`);
    if (!transport.ok) {
      logFailure({ fields, id: c.get('requestId') }, { reason: 'not_configured' });
      return refuse(c, refusal('geocoding_not_configured'));
    }
    if (transport.paid) {
      const limited = await limitRefusal(rateAskerOf(c), 'geocode', GEOCODE_RULES, { phone: null });
      if (limited) return refuse(c, limited);
    }
    const outcome = await exchangeWithPortal(
      transport.send,
      transport.request,
      GEOCODING_TIMEOUT_MS,
    );
    const reading = readingOf(outcome);
    if (!reading.ok) {
      logFailure({ fields, id: c.get('requestId') }, { ...reading, ms: outcome.ms }, transport.key);
      return refuse(c, refusal('geocoding_failed'));
    }
    fields.geocode = transport.paid ? 'google' : 'development';
    if (transport.paid) afterAnswer(c, cacheLocation(origin, city, country, reading.location));
    await allowAreaMap(c.env, signedCookiesOf(c), reading.location);
    return apiJson(c, 200, { location: reading.location } satisfies GeocodeAnswer);
  };
}

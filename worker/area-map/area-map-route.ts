import type { Handler } from 'hono';
import { type LogFields, logError } from '../../shared/log';
import { refusal, refuse } from '../http/api-json';
import { AREA_MAP_RULES, limitRefusal } from '../rate-limits/rate-limit-gate';
import { afterAnswer } from '../request/after-answer';
import { signedCookiesOf } from '../request/cookies';
import type { ApiEnv } from '../request/envs';
import { rateAskerOf } from '../request/visit';
import { AREA_MAP_CACHE_SECONDS, cacheAreaMap, cachedAreaMap } from './area-map-cache';
import { allowedAreaMap, staticMapsKey } from './area-map-cookie';
import { askStaticMaps, type StaticMapOutcome, staticMapRequest } from './static-maps';

/** areaMapPoint's text (shared/api/area-map.ts): two numbers of four decimals, nothing else. */
const POINT = /^-?\d{1,2}\.\d{4},-?\d{1,3}\.\d{4}$/;

/** The picture as the browser keeps it: this visitor's, for a day; never in a shared cache. */
function pictureOf(body: ReadableStream | null): Response {
  return new Response(body, {
    headers: {
      'content-type': 'image/png',
      'cache-control': `private, max-age=${AREA_MAP_CACHE_SECONDS}, immutable`,
    },
  });
}

/**
 * Google failed, timed out or was refused: logged (the key scrubbed), and answered with no
 * picture (by the handler), not a 5xx: the page's image fails quietly and its drawn map stays.
 */
function logNoPicture(
  log: { fields: LogFields; id: string },
  failure: Extract<StaticMapOutcome, { ok: false }>,
  key: string,
): void {
  log.fields.area_map = 'failed';
  logError('area_map_failed', {
    id: log.id,
    call: 'area_map',
    reason: failure.reason,
    detail: failure.detail?.replaceAll(key, '[key]'),
  });
}

/**
 * `GET /api/area-map?at=<lat>,<lng>` (shared/api/area-map.ts): Google's static map of the area
 * the visitor's own geocoding located, streamed from Google with the server's key. In order:
 * no key configured, nothing is drawn (404); `at` must be a point's text (400) and the very
 * point this visitor's signed cookie holds (404 otherwise: no one draws a point of their
 * choosing); a picture drawn within a day answers at once; the visitor's and the address's limits
 * are counted (429); Google is asked with every other parameter fixed, so this is no proxy.
 */
export function areaMapRoute(): Handler<ApiEnv> {
  return async function areaMapHandler(c) {
    const fields = c.get('logFields');
    fields.call = 'area_map';
    const key = staticMapsKey(c.env);
    if (key === null) return refuse(c, refusal('not_found'));
    const at = c.req.query('at') ?? '';
    if (!POINT.test(at) || Object.keys(c.req.queries()).length !== 1) {
      return refuse(c, refusal('invalid_request', ['at: a point as <lat>,<lng>']));
    }
    if ((await allowedAreaMap(signedCookiesOf(c))) !== at) return refuse(c, refusal('not_found'));

    const origin = new URL(c.req.url).origin;
    const cached = await cachedAreaMap(origin, at);
    if (cached) {
      fields.area_map = 'cache';
      return pictureOf(cached.body);
    }
    const limited = await limitRefusal(rateAskerOf(c), 'area_map', AREA_MAP_RULES, {
      phone: null,
    });
    if (limited) return refuse(c, limited);

    const outcome = await askStaticMaps(staticMapRequest(at, key));
    if (!outcome.ok) {
      logNoPicture({ fields, id: c.get('requestId') }, outcome, key);
      c.header('Cache-Control', 'no-store');
      return c.body(null, 204);
    }
    fields.area_map = 'google';
    const [forVisitor, forCache] = (outcome.image.body as ReadableStream).tee();
    afterAnswer(c, cacheAreaMap(origin, at, forCache));
    return pictureOf(forVisitor);
  };
}

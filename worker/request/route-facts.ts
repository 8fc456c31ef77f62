import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { visitorFacts } from '../routing/attributes';
import type { FirstTouch } from '../routing/first-touch';
import type { VisitorFacts } from '../routing/router';
import type { RouteMiddlewareEnv } from './envs';
import { VISITOR_COOKIE, visitorIdOf } from './visitor-cookie';

/**
 * The visitor's route for the visit: a session cookie, gone when the browser closes, signed for
 * the visitor (worker/routing/kept-route.ts holds its value).
 */
export const ROUTE_COOKIE = 'gf_route';

/** What rules read of a page request (routes here, experiments' audiences after). */
export function requestFacts<E extends RouteMiddlewareEnv>(
  c: Context<E>,
  touch: FirstTouch,
  now: number,
): VisitorFacts {
  return visitorFacts({
    firstTouch: touch,
    language: c.get('language'),
    userAgent: c.req.header('user-agent'),
    platformHint: c.req.header('sec-ch-ua-platform'),
    inApp: c.get('inApp') ?? null,
    returning: visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null,
    timeZone: timeZoneOf(c.req.raw),
    now,
  });
}

/** `request.cf.timezone` (an IANA name), or null outside Cloudflare's edge. */
function timeZoneOf(request: Request): string | null {
  const zone = (request.cf as { timezone?: unknown } | undefined)?.timezone;
  return typeof zone === 'string' && zone.length > 0 && zone.length <= 64 ? zone : null;
}

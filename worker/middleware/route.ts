import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import type { AppEnv } from '../env';
import { PREVIEW_COOKIE } from '../funnel/preview-cookie';
import { visitorFacts } from '../routing/attributes';
import type { FirstTouch } from '../routing/first-touch';
import {
  type ChosenRoute,
  chooseRoute,
  compiledRouting,
  type VisitorFacts,
} from '../routing/router';
import { VISITOR_COOKIE, visitorIdOf } from './visitor';

/** The visitor's route for the visit: a session cookie, gone when the browser closes. */
export const ROUTE_COOKIE = 'gf_route';

const ROUTE_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;

/**
 * Chooses the visitor's route (worker/routing/router.ts) on a page request, before the split
 * test, which draws only the visitors of the routes it names. The route is kept for the visit
 * in `gf_route`, so a visitor mid-funnel keeps their route when marketers reorder, pause or
 * reschedule routes; only a route that no longer exists is chosen again. Other requests (the
 * API) read the cookie and never choose: their answer has no flow to pick.
 *
 * Reads only what the request and the config cached per isolate hold: no KV read, no I/O.
 */
export function route(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function routeMiddleware(c, next) {
    const routing = compiledRouting(c.get('config').routing);
    const kept = getCookie(c, ROUTE_COOKIE);
    let chosen: ChosenRoute | undefined =
      kept && ROUTE_ID.test(kept) ? routing.byId.get(kept) : undefined;
    const touch = c.get('firstTouch');
    if (!chosen && touch) {
      const at = now();
      chosen = chooseRoute(routing, requestFacts(c, touch, at), at);
      // The exposure middleware counts a new visitor's first visit on the route chosen here.
      c.set('routeChosen', true);
      // A marketer's preview is no visit: it keeps nothing (worker/funnel/preview.ts).
      if (getCookie(c, PREVIEW_COOKIE) === undefined) {
        setCookie(c, ROUTE_COOKIE, chosen.id, {
          httpOnly: true,
          secure: true,
          sameSite: 'Lax',
          path: '/',
        });
      }
    }
    const current = chosen ?? routing.byId.get(DEFAULT_ROUTE_ID) ?? fallbackRoute;
    c.set('route', current);
    c.get('logFields').route = current.id;
    await next();
  };
}

/** What rules read of a page request (routes here, experiments' audiences after). */
export function requestFacts(c: Context<AppEnv>, touch: FirstTouch, now: number): VisitorFacts {
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

const fallbackRoute: ChosenRoute = { id: DEFAULT_ROUTE_ID, flow: 'default', plans: null };

/** `request.cf.timezone` (an IANA name), or null outside Cloudflare's edge. */
function timeZoneOf(request: Request): string | null {
  const zone = (request.cf as { timezone?: unknown } | undefined)?.timezone;
  return typeof zone === 'string' && zone.length > 0 && zone.length <= 64 ? zone : null;
}

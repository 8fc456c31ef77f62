import type { MiddlewareHandler } from 'hono';
import { NO_PLAN_CHOICES } from '../../shared/plans/screen-offers';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { routesPassedOver } from '../experiments/holdout/holdout';
import { routeRampDraw } from '../experiments/ramps/route-ramp';
import {
  ROUTE_COOKIE,
  reportInvalidCookie,
  requestFacts,
  type SignedCookie,
  signedCookiesOf,
  writeSignedCookie,
} from '../request/cookies';
import type { RouteMiddlewareEnv } from '../request/envs';
import {
  type ChosenRoute,
  chooseRouteDrawn,
  compiledRouting,
  decodeKeptRoute,
  encodeKeptRoute,
} from '../routing/router';

const ROUTE_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
  path: '/',
} as const;

/**
 * Chooses the visitor's route (worker/routing/router.ts) on a page request, before the split
 * test, which draws only the visitors of the routes it names. The route is kept for the visit
 * in `gf_route`, so a visitor mid-funnel keeps their route when marketers reorder, pause or
 * reschedule routes; only a route that no longer exists, or one chosen a day ago or more
 * (worker/routing/router.ts), is chosen again. Other requests (the
 * API) read the cookie and never choose: their answer has no flow to pick.
 *
 * The cookie is signed for the visitor id (worker/request/cookies.ts) and read only
 * when its signature holds, so a visitor cannot name a route that would not take them (paused,
 * not started, ended, another audience's): they get the route a new visitor like them gets, and
 * an unsigned, edited or copied cookie is reported once and replaced.
 *
 * A new route on a ramp takes only the visitors its band draws by their id; the others get the
 * route the router picks next, and both bands are counted (routeRamps, worker/middleware/
 * exposure.ts). A route whose ramp was rolled back keeps no one: its visitors are routed again.
 *
 * Reads only what the request and the config cached per isolate hold: no KV read, no I/O; one
 * HMAC verify when the request brings the cookie, one signing when the route is chosen.
 */
export function route(options: { now?: () => number } = {}): MiddlewareHandler<RouteMiddlewareEnv> {
  const now = options.now ?? Date.now;
  return async function routeMiddleware(c, next) {
    const routing = compiledRouting(c.get('config').routing);
    const at = now();
    // A preview that names its country is a new visitor from there (worker/middleware/country.ts).
    const cookie: SignedCookie = c.get('previewCountry')
      ? { state: 'none' }
      : await signedCookiesOf(c).read(ROUTE_COOKIE);
    const kept = cookie.state === 'valid' ? decodeKeptRoute(cookie.value, at) : null;
    // A route whose ramp was rolled back keeps no one: they are routed again, to its fallback.
    // Nor does a route kept for some countries hold in another: a cookie pair copied to a
    // visitor elsewhere (or a visitor who moved) carries none of that country's route and plans.
    const keptId =
      kept === null || routing.rolledBack.has(kept) || !routing.holdsIn(kept, c.get('country'))
        ? null
        : kept;
    let chosen: ChosenRoute | undefined = keptId === null ? undefined : routing.byId.get(keptId);
    if (chosen) c.set('routeKept', true);
    const touch = c.get('firstTouch');
    if (!chosen && touch) {
      const facts = requestFacts(c, touch, at);
      const visitorId = c.get('visitorId');
      // A held-out visitor never gets a route new since the holdout started; a ramped route
      // takes the visitors its band draws (docs/routes.md, "A new route on a ramp").
      const passedOver = routesPassedOver(c.get('config'), visitorId, at);
      const drawn = chooseRouteDrawn(
        routing,
        facts,
        at,
        visitorId ? routeRampDraw(visitorId) : () => null,
        passedOver,
      );
      chosen = drawn.route;
      if (drawn.arms.length > 0) c.set('routeRamps', drawn.arms);
      // The exposure middleware counts a new visitor's first visit on the route chosen here.
      c.set('routeChosen', true);
      // A marketer's preview is no visit: it keeps nothing (worker/funnel/preview.ts). A preview
      // cookie not verified for this browser is no preview: the visitor's route is kept.
      if (c.get('openedPreview') === undefined) {
        if (cookie.state === 'invalid') reportInvalidCookie(c, ROUTE_COOKIE, cookie.reason);
        await writeSignedCookie(
          c,
          ROUTE_COOKIE,
          encodeKeptRoute(chosen.id, at),
          ROUTE_COOKIE_OPTIONS,
        );
      }
    }
    const current = chosen ?? routing.byId.get(DEFAULT_ROUTE_ID) ?? fallbackRoute;
    c.set('route', current);
    c.get('logFields').route = current.id;
    await next();
  };
}

const fallbackRoute: ChosenRoute = { id: DEFAULT_ROUTE_ID, flow: 'default', ...NO_PLAN_CHOICES };

/**
 * What the gf_route cookie keeps (signed, worker/request/cookies.ts): the route chosen
 * for the visit and when, `<route id>.<epoch seconds>`. The visit is the browser's session, and
 * at most ROUTE_VISIT_MS: a browser that is never closed (most phones') does not keep a route
 * its marketers paused or ended weeks ago, nor does a visitor who saved the cookie.
 */

const ROUTE_VISIT_MS = 24 * 60 * 60 * 1000;

const ROUTE_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;
const SECONDS = /^\d{1,12}$/;

/** The cookie's value for `routeId` chosen at `nowMs`. */
export function encodeKeptRoute(routeId: string, nowMs: number): string {
  return `${routeId}.${Math.floor(nowMs / 1000)}`;
}

/**
 * The route id a cookie's value keeps at `nowMs`, or null when it is not what encodeKeptRoute
 * wrote or the visit is over (chosen ROUTE_VISIT_MS ago or more).
 */
export function decodeKeptRoute(value: string, nowMs: number): string | null {
  const dot = value.indexOf('.');
  const id = value.slice(0, dot);
  const seconds = value.slice(dot + 1);
  if (dot === -1 || !ROUTE_ID.test(id) || !SECONDS.test(seconds)) return null;
  const chosenAt = Number(seconds) * 1000;
  return nowMs - chosenAt < ROUTE_VISIT_MS ? id : null;
}

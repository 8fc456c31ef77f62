import { isScreenRef } from '../../../shared/composed-screens';
import type { BotReason } from '../assignment/bots';

/** What the worker knows of a request once its answer is ready. */
export interface AnsweredRequest {
  method: string;
  path: string;
  status: number;
  /** A marketer's preview (worker/preview/preview.ts). */
  preview: boolean;
  /** `?skip_split=true` (SPEC.md §4). */
  skipSplit: boolean;
  /** A speculative prefetch or prerender, not (yet) a visit. */
  speculative: boolean;
  /** A page of a visitor whose browser keeps no cookies, after their first (isCookielessReturn, worker/request/cookies.ts). */
  cookielessReturn: boolean;
  bot: BotReason | null;
}

/**
 * Whether the page a request answered can expose a visitor to their experiments ('exposed'),
 * would have but came from a known bot ('bot', counted apart), or cannot (null): a funnel screen
 * the visitor was shown (a GET of `/` or `/<screen id>` answered 200). A preview, `skip_split`, a
 * prefetch (the page is not seen yet; speculation rules leave out a page that would expose, so
 * its real visit comes to the worker, worker/routes/screens/) and a form post never count; the
 * API, the collector, the console and assets are no screens. A browser that keeps no cookies
 * walks every experiment's control and is never counted (worker/request/visit-facts.ts).
 * Which experiments the page exposes is exposedAt's.
 */
export function exposureVerdict(request: AnsweredRequest): 'exposed' | 'bot' | null {
  if (request.preview || request.skipSplit || request.speculative) return null;
  if (request.method !== 'GET' || request.status !== 200 || !isFunnelScreenPath(request.path)) {
    return null;
  }
  if (request.bot !== null) return 'bot';
  return request.cookielessReturn ? null : 'exposed';
}

/**
 * Whether a visitor assigned to an experiment, and not exposed to it yet, is exposed on the
 * screen at `index` of their funnel: at or after the experiment's trigger, the first screen where
 * its variants differ for them (worker/experiments/config/evaluate.ts visitorTrigger). Before it
 * every variant showed the same, so counting there would dilute the arms with visitors who never
 * saw the difference; a visitor coming in past it (a resume link, a bookmark) is counted where
 * they come in. A screen outside their funnel (-1) exposes nothing.
 */
export function exposedAt(index: number, trigger: number | null): boolean {
  return index >= 0 && trigger !== null && index >= trigger;
}

/** What decides whether a request was a visitor's first visit on their route. */
export interface RouteRequest {
  method: string;
  path: string;
  status: number;
  /** The route middleware chose the route on this request: no valid `gf_route` cookie came. */
  routeChosen: boolean;
  /** The request brought a userUuid cookie: the visitor was here before. */
  returning: boolean;
  preview: boolean;
  speculative: boolean;
  cookielessReturn: boolean;
  bot: BotReason | null;
}

/**
 * Whether the request was a new visitor's first visit on the route chosen for them, counted once
 * in route_days: a visitor with no userUuid cookie whose route was chosen on a funnel screen
 * they were shown, as an exposure is (exposureVerdict). Their next pages bring the cookies, so
 * choose nothing. Known bots are not counted at all: route_days counts people, and bots rarely
 * keep cookies, so each of their pages would look new. A browser that keeps no cookies counts
 * on its first page only (isCookielessReturn, worker/request/cookies.ts). `skip_split` does count: it is a visit, only
 * outside the split.
 */
export function isFirstVisit(request: RouteRequest): boolean {
  return (
    request.routeChosen &&
    !request.returning &&
    !request.preview &&
    !request.speculative &&
    !request.cookielessReturn &&
    request.bot === null &&
    request.method === 'GET' &&
    request.status === 200 &&
    isFunnelScreenPath(request.path)
  );
}

/**
 * `/` (the first screen of the visitor's flow) or `/<screen id>`, of a screen in code or a
 * composed one (worker/routes/screens/); an undeclared one is a 404, counted nowhere.
 */
function isFunnelScreenPath(path: string): boolean {
  return path === '/' || isScreenRef(path.slice(1));
}

/**
 * A speculative fetch, as browsers mark it: `Sec-Purpose: prefetch` (speculation rules, link
 * prefetch; `prefetch;prerender` for a prerender), or the older `Purpose` / `X-Moz: prefetch`.
 * The request log marks the same requests `"prefetch":true`.
 */
export function isSpeculative(header: (name: string) => string | undefined): boolean {
  return ['sec-purpose', 'purpose', 'x-moz'].some((name) =>
    header(name)?.toLowerCase().includes('prefetch'),
  );
}

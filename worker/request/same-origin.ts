import type { Context, Env, MiddlewareHandler } from 'hono';
import type { AppEnv } from './envs';

/**
 * The one same-origin rule for every request that changes something on a visitor's behalf: `/api`'s POST calls, the
 * collector's `POST /e`, the consent banner's `POST /consent` and the login link's
 * `POST /app/login`. Each route keeps its own way of saying no; the rule is this one.
 *
 * A request comes from one of our own pages when
 * - its `Sec-Fetch-Site` is `same-origin`: the browser's own verdict, which no page can set, so
 *   it outvotes whatever `Origin` says; or
 * - it has no `Sec-Fetch-Site` (browsers before Chrome 76, Firefox 90 and Safari 16.4, or a URL
 *   that is not potentially trustworthy) and its `Origin` is the worker's own.
 *
 * A request with neither header is refused. Browsers send `Origin` on every request whose
 * method is neither GET nor HEAD, whatever made it: a form, fetch, fetch with keepalive and
 * sendBeacon alike (the Fetch standard's "append a request `Origin` header"; MDN corrected the
 * opposite claim in mdn/content#3239). Checked in Chromium 156: `sendBeacon` with a string, with
 * a JSON Blob and with no body, `fetch(…, { keepalive: true })` and a form POST each carried our
 * `Origin` and `Sec-Fetch-Site: same-origin`. So a POST with neither is no page of ours but a
 * script (a curl posting purchases, say). A script can forge both headers, so this rule is
 * about browsers (a cross-site page cannot make one send them); what a forger posts is limited
 * elsewhere (server-verified purchases, rate limits).
 *
 * Why not `hono/csrf`: it checks only the content types a cross-site form can send, so a JSON
 * POST with neither header passes; it takes either header, so an `Origin` can outvote
 * `Sec-Fetch-Site: cross-site`; and it refuses by throwing its own plain 403, where `/api` must
 * answer JSON `cross_origin` and `/e` its `cross_site` refusal. Wrapping it would leave all three
 * to redo here. Even for the form posts (`/consent`, `/app/login`), whose content type it does
 * guard, the second point stands, and its thrown 403 would reach the app's error handler as an
 * unhandled exception instead of the form's plain refusal.
 */

/**
 * Why `request` is not from one of our pages, for a log line or a refusal's detail; null when
 * it is.
 */
export function crossOriginReason(request: Request): string | null {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site === 'same-origin' ? null : `Sec-Fetch-Site: ${site.slice(0, 40)}`;
  const origin = request.headers.get('origin');
  if (origin === null) return 'neither Sec-Fetch-Site nor Origin';
  return origin === new URL(request.url).origin ? null : `Origin: ${origin.slice(0, 200)}`;
}

/** How a route says no to a request from elsewhere; `reason` is crossOriginReason's. */
export type CrossOriginRefusal<E extends Env = AppEnv> = (
  c: Context<E>,
  reason: string,
) => Response;

/** Reading changes nothing, so only the other methods need to come from our pages. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The rule as middleware: a mutating request from elsewhere gets `refuse`'s answer. */
export function sameOriginOnly<E extends Env>(refuse: CrossOriginRefusal<E>): MiddlewareHandler<E> {
  return async function sameOriginMiddleware(c, next) {
    if (!SAFE_METHODS.has(c.req.method)) {
      const reason = crossOriginReason(c.req.raw);
      if (reason !== null) return refuse(c, reason);
    }
    await next();
  };
}

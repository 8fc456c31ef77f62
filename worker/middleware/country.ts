import type { Context, MiddlewareHandler } from 'hono';
import { honoursCountryHeader, honoursPreviewCountry } from '../environment';
import { draftCountryOf } from '../funnel/preview';
import { keptFirstTouch, signedCookiesOf } from '../request/cookies';
import type {
  BaseVariables,
  CountryVariables,
  EnvOf,
  PreviewCookieVariables,
  VisitorVariables,
} from '../request/envs';

const COUNTRY = /^[A-Z]{2}$/;

/**
 * Where the country middleware runs: after the visitor and preview cookie middleware, but the
 * collector has neither.
 */
type CountryMiddlewareEnv = EnvOf<
  BaseVariables & Partial<VisitorVariables> & PreviewCookieVariables & CountryVariables
>;

/** An ISO country code as the edge or a tester writes it, or null ('XX', 'T1' and junk). */
function countryCode(candidate: string | null | undefined): string | null {
  const code = candidate?.trim().toUpperCase();
  // 'XX' and 'T1' (Tor) are Cloudflare's "no country" answers.
  return code && COUNTRY.test(code) && code !== 'XX' ? code : null;
}

/** `request.cf.country` where the runtime gives one. */
function edgeCountry(request: Request): string | undefined {
  const fromCf = (request.cf as { country?: unknown } | undefined)?.country;
  return typeof fromCf === 'string' ? fromCf : undefined;
}

/**
 * The `?country=` a preview's request names: a page's own query; for an `/api` call, which
 * carries no query of the page (and `/api/geocode` has a `country` of its own), the query of the
 * page that made it (the same-origin `Referer`, as the offer check reads `skip_split`).
 */
function namedCountry(requestUrl: string, referer: string | undefined): string | null {
  const url = new URL(requestUrl);
  if (!url.pathname.startsWith('/api/')) return url.searchParams.get('country');
  if (!referer) return null;
  try {
    const page = new URL(referer);
    return page.origin === url.origin ? page.searchParams.get('country') : null;
  } catch {
    return null;
  }
}

/**
 * The country a marketer's preview names with `?country=`, where that is honoured: only in the
 * browser the preview was opened in (worker/middleware/preview-cookie.ts verified it).
 */
function previewCountry(c: Context<CountryMiddlewareEnv>): string | null {
  if (!honoursPreviewCountry(c.env) || c.get('openedPreview') === undefined) return null;
  return countryCode(namedCountry(c.req.url, c.req.header('referer')));
}

/**
 * In development, the country a request names by header, else the one the visit's signed first
 * touch keeps: a visitor stays where their first page was from, as their address keeps them in
 * one country in production, though a browser sends a header its tester set on some requests
 * only (Chromium's speculative prefetch of the next screen carries no header a test or an
 * extension adds, and neither does an /api call that a tool leaves out).
 */
async function toldCountry(
  c: Context<CountryMiddlewareEnv>,
  header: string | undefined,
): Promise<string | null> {
  const named = countryCode(header);
  if (named !== null) return named;
  if (!c.get('visitorId')) return null;
  const { touch } = await keptFirstTouch(signedCookiesOf(c), Date.now());
  return countryCode(touch?.country);
}

/**
 * The visitor's country (c.get('country')), or null when unknown:
 * - on Cloudflare's edge (production, staging), `request.cf.country`, which Cloudflare takes from
 *   the visitor's address; the `CF-IPCountry` header only where the runtime gives no `cf`;
 * - in development (honoursCountryHeader), the `CF-IPCountry` header first, then the country the
 *   visit's first touch kept (toldCountry): `wrangler dev` gives every request a `cf.country` of
 *   its own, so the header is how a tester is a visitor from anywhere
 *   (`curl -H 'CF-IPCountry: DE' …`);
 * - outside production (honoursPreviewCountry), a marketer's preview may name it with
 *   `?country=DE`, over both; its pages then take their first touch and route afresh
 *   (c.get('previewCountry')). A preview keeps and counts nothing, so this reaches no visitor.
 */
export function country(): MiddlewareHandler<CountryMiddlewareEnv> {
  return async function countryMiddleware(c, next) {
    // The console's own preview of a draft names its country on the request it made (a visitor
    // cannot), so it holds in production too, where `?country=` does not.
    const previewed = draftCountryOf(c.req.raw) ?? previewCountry(c);
    if (previewed !== null) {
      c.set('country', previewed);
      c.set('previewCountry', true);
    } else {
      const header = c.req.header('cf-ipcountry');
      const told = honoursCountryHeader(c.env) ? await toldCountry(c, header) : null;
      c.set('country', told ?? countryCode(edgeCountry(c.req.raw) ?? header));
    }
    await next();
  };
}

import type { MiddlewareHandler } from 'hono';
import type { Source } from '../../shared/routing';
import {
  FIRST_TOUCH_COOKIE,
  FIRST_TOUCH_MAX_AGE,
  keptFirstTouch,
  reportInvalidCookie,
  signedCookiesOf,
  writeSignedCookie,
} from '../request/cookies';
import type { AppEnv } from '../request/envs';
import { DEFAULT_SOURCE_ALIASES, encodeFirstTouch, takeFirstTouch } from '../routing/first-touch';

/**
 * Keeps where a visit came from (worker/routing/first-touch.ts) for the routes to read
 * (c.get('firstTouch')): a page request with a valid gf_touch cookie keeps it, whatever its link
 * says now, so a visitor's route does not change because a later link carried other UTM
 * parameters; any other page request takes its own first touch and sets the cookie.
 *
 * The cookie is signed for the visitor id (worker/request/cookies.ts): a first touch a
 * visitor wrote or edited by hand, or copied from another browser, is not read (it would match
 * any audience: a source, UTM values, a country of their choosing), but reported once and
 * replaced by the request's own.
 *
 * The cookie is first-party, HttpOnly and holds no identifier: the source, the network of the
 * link's click id (not the id), its UTM parameters and entry alias, the country and the first
 * page's time, only to choose a funnel for
 * the visit. It is set whatever the consent answer; the ad cookies still wait for it
 * (worker/middleware/attribution.ts). A marketer's preview sets nothing, in the browser that
 * opened it (worker/request/visit-facts.ts); a preview cookie copied elsewhere is no preview.
 */
export function firstTouch(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function firstTouchMiddleware(c, next) {
    const at = now();
    const { touch: kept, cookie } = c.get('previewCountry')
      ? // A preview that names its country is a new visitor from there (worker/request/visit-facts.ts).
        { touch: null, cookie: { state: 'none' } as const }
      : await keptFirstTouch(signedCookiesOf(c), at);
    const touch =
      kept ??
      takeFirstTouch({
        url: new URL(c.req.url),
        referrer: c.req.header('referer') ?? null,
        country: c.get('country'),
        now: at,
        aliases: aliasesOf(c.get('config').routing.aliases),
      });
    c.set('firstTouch', touch);
    c.get('logFields').source = touch.source;
    if (!kept && c.get('openedPreview') === undefined) {
      if (cookie.state === 'invalid') reportInvalidCookie(c, FIRST_TOUCH_COOKIE, cookie.reason);
      await writeSignedCookie(c, FIRST_TOUCH_COOKIE, encodeFirstTouch(touch), {
        maxAge: FIRST_TOUCH_MAX_AGE,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
        path: '/',
      });
    }
    await next();
  };
}

/**
 * The marketers' spellings (the routing section's `aliases`) over the built-in ones, merged once
 * per routing document.
 */
const mergedAliases = new WeakMap<object, Readonly<Record<string, Source>>>();

function aliasesOf(
  marketers: Readonly<Record<string, Source>> | undefined,
): Readonly<Record<string, Source>> {
  if (!marketers) return DEFAULT_SOURCE_ALIASES;
  let merged = mergedAliases.get(marketers);
  if (!merged) {
    merged = { ...DEFAULT_SOURCE_ALIASES, ...marketers };
    mergedAliases.set(marketers, merged);
  }
  return merged;
}

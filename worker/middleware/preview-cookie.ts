import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AccessCheck } from '../access/console-access';
import {
  ignorePreviewCookie,
  PREVIEW_COOKIE,
  previewAuthorOf,
  previewKey,
  readPreviewCookie,
} from '../funnel/preview';
import { VISITOR_COOKIE, visitorIdOf } from '../request/cookies';
import type { BaseVariables, EnvOf, PreviewCookieVariables } from '../request/envs';

/**
 * Reads a marketer's preview cookie once per request, before anything that treats a preview
 * apart (the country a preview names, the first touch and route it does not keep, the draft copy
 * it shows, the experiments it skips), so each reads this verified fact and none re-verifies.
 *
 * The token is checked for the visitor id the browser's own `userUuid` cookie holds, not one
 * the visitor middleware just drew: a browser without one cannot hold a preview signed for it;
 * and for the marketer Cloudflare Access says the request is from (`access`, asked only when
 * there is a cookie): a cookie pair lent to someone else, or carried out of the marketer's
 * signed-in browser, previews nothing.
 * A cookie that is not authentic, current and this browser's (forged, expired, or copied from
 * the marketer's browser) is ignored with one warning line and cleared: the visitor then walks
 * their own route and arms, and is exposed and counted like anyone else.
 */
export function previewCookie(
  access: AccessCheck,
): MiddlewareHandler<EnvOf<BaseVariables & PreviewCookieVariables>> {
  return async function previewCookieMiddleware(c, next) {
    const cookie = await readPreviewCookie(
      getCookie(c, PREVIEW_COOKIE),
      previewKey(c.env),
      Date.now(),
      {
        visitorId: visitorIdOf(getCookie(c, VISITOR_COOKIE)),
        author: previewAuthorOf(access, c.env, c.req.raw),
      },
    );
    if (cookie.state === 'invalid') {
      ignorePreviewCookie(c, c.get('requestId'), cookie.reason);
    } else if (cookie.state === 'valid') {
      c.set(
        'openedPreview',
        'route' in cookie ? { route: cookie.route } : { variant: cookie.variant },
      );
    }
    await next();
  };
}

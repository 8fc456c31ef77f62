import type { MiddlewareHandler } from 'hono';
import { detectInAppBrowser } from '../../shared/in-app-browser';
import type { AppEnv } from '../request/envs';

/**
 * Which ad app's own browser a page request comes from (shared/in-app-browser.ts), from the user
 * agent and the `Sec-CH-UA-Platform` hint: the screens drop what fails there (Google sign-in) and
 * every event names it. The request's log line carries it as `in_app` (`instagram_ios`), so ops
 * can tell a problem that only those browsers have.
 */
export function inAppBrowser(): MiddlewareHandler<AppEnv> {
  return async function inAppMiddleware(c, next) {
    const found = detectInAppBrowser(c.req.header('user-agent'), {
      platform: c.req.header('sec-ch-ua-platform'),
    });
    c.set('inApp', found);
    if (found) c.get('logFields').in_app = `${found.app}_${found.os}`;
    await next();
  };
}

import { Hono } from 'hono';
import { DEEPLINK_CONSUME_CALL } from '../../shared/api/contract';
import { requestBrand } from '../funnel/locale';
import { spendDeeplinkToken } from '../portal-client/deeplink-consume';
import type { PortalFetch } from '../portal-client/portal-call';
import type { OtherPagesEnv } from '../request/envs';
import { formBodyLimit, formOriginOnly } from '../request/form-guards';
import { visitOf } from '../request/visit';
import { setSessionToken } from '../session/session-cookie';
import { LOGIN_PAGE_STATUS, type LoginPageKind, loginPageHtml } from './app-login-page';
import { PLAIN_PAGE_HEADERS } from './plain-page';

/**
 * The login link of the success screen's deeplink, whose one-time token logs the visitor in
 * once, and which survives link previewers:
 * - `GET /app/login?token=…` shows a page and consumes nothing. Chat apps and mail scanners
 *   fetch a link to preview it before the person taps it; a GET that consumed the one-time token
 *   burnt it for them.
 * - That page's form POSTs the token to `POST /app/login` (pressed by the person, or submitted
 *   by its script once the page is shown: app-login-page.ts says why that is safe), which
 *   consumes it through the portal and logs the visitor in with the session cookie; the portal
 *   answers a second use with 410. Same-origin only (the worker's one rule): another site must
 *   not log the visitor into an account of its choosing.
 * The portal call is DEEPLINK_CONSUME_CALL of the contract (portal-client/deeplink-consume.ts).
 */

/** The form carries one token of at most 255 characters; anything bigger is not our page. */
const MAX_BODY_BYTES = 1024;

/** The token as the contract takes it, else null (a missing, empty or oversized one). */
function validToken(token: unknown): string | null {
  const parsed = DEEPLINK_CONSUME_CALL.request.safeParse({ token });
  return parsed.success ? parsed.data.token : null;
}

/** A login page's HTML in the request's language and brand. */
function loginPage(
  page: Pick<OtherPagesEnv['Variables'], 't' | 'language' | 'config' | 'theme' | 'nonce'>,
  kind: LoginPageKind,
  token?: string,
): string {
  const { t, language, config, theme, nonce } = page;
  return loginPageHtml({ kind, t, language, brand: requestBrand(config, theme), token, nonce });
}

export function appLoginRoutes(deps: { portalFetch?: PortalFetch }): Hono<OtherPagesEnv> {
  // c.html, not a Response of its own, so a session cookie set on c goes with the page.
  return new Hono<OtherPagesEnv>()
    .get('/login', function showLoginLink(c) {
      const token = validToken(c.req.query('token'));
      c.get('logFields').detail = token ? 'deeplink_login_shown' : 'deeplink_login_unknown';
      const kind = token ? 'open' : 'unknown';
      const html = loginPage(c.var, kind, token ?? undefined);
      return c.html(html, LOGIN_PAGE_STATUS[kind], PLAIN_PAGE_HEADERS);
    })
    .post(
      '/login',
      formOriginOnly(),
      formBodyLimit(MAX_BODY_BYTES),
      async function consumeLoginLink(c) {
        const token = validToken((await c.req.parseBody()).token);
        const spent = token
          ? await spendDeeplinkToken(visitOf(c), token, deps)
          : ({ outcome: 'unknown' } as const);
        if (spent.outcome === 'logged_in') setSessionToken(c, spent.accessToken);
        c.get('logFields').detail = `deeplink_login_${spent.outcome}`;
        const html = loginPage(c.var, spent.outcome);
        return c.html(html, LOGIN_PAGE_STATUS[spent.outcome], PLAIN_PAGE_HEADERS);
      },
    );
}

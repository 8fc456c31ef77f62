import type { Context } from 'hono';
import { Hono } from 'hono';
import { DEEPLINK_CONSUME_CALL } from '../../shared/api/contract';
import { logError } from '../../shared/log';
import { executionContextOf } from '../after-answer';
import { exchangeWithPortal, portalTimeoutMs } from '../api/portal-exchange';
import { portalRequest } from '../api/portal-request';
import { type PortalFetch, portalTransport } from '../api/portal-transport';
import { setSessionToken } from '../api/session-cookie';
import type { AppEnv } from '../env';
import { sameOriginOnly } from '../middleware/same-origin';
import { LOGIN_PAGE_STATUS, type LoginPageKind, loginPageHtml } from './app-login-page';
import { formBodyLimit, refuseForeignForm } from './form-post';
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
 * The portal call is DEEPLINK_CONSUME_CALL of the contract, through the same transport as `/api`.
 */

type LoginOutcome = Exclude<LoginPageKind, 'open'>;

/** The form carries one token of at most 255 characters; anything bigger is not our page. */
const MAX_BODY_BYTES = 1024;

/** The token as the contract takes it, else null (a missing, empty or oversized one). */
function validToken(token: unknown): string | null {
  const parsed = DEEPLINK_CONSUME_CALL.request.safeParse({ token });
  return parsed.success ? parsed.data.token : null;
}

/** Answers a login page; c.html, not a Response of its own, so a session cookie goes with it. */
function showLoginPage(
  c: Context<AppEnv>,
  kind: LoginPageKind,
  token?: string,
): Response | Promise<Response> {
  const html = loginPageHtml({
    kind,
    t: c.get('t'),
    language: c.get('language'),
    token,
    nonce: c.get('nonce'),
  });
  return c.html(html, LOGIN_PAGE_STATUS[kind], PLAIN_PAGE_HEADERS);
}

export function appLoginRoutes(deps: { portalFetch?: PortalFetch }): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get('/login', function showLoginLink(c) {
      const token = validToken(c.req.query('token'));
      c.get('logFields').detail = token ? 'deeplink_login_shown' : 'deeplink_login_unknown';
      return token ? showLoginPage(c, 'open', token) : showLoginPage(c, 'unknown');
    })
    .post(
      '/login',
      sameOriginOnly(refuseForeignForm),
      formBodyLimit(MAX_BODY_BYTES),
      async function consumeLoginLink(c) {
        const token = validToken((await c.req.parseBody()).token);
        const outcome = token ? await consume(c, token, deps) : 'unknown';
        c.get('logFields').detail = `deeplink_login_${outcome}`;
        return showLoginPage(c, outcome);
      },
    );
}

async function consume(
  c: Context<AppEnv>,
  token: string,
  deps: { portalFetch?: PortalFetch },
): Promise<LoginOutcome> {
  const transport = portalTransport(c.env, deps.portalFetch, executionContextOf(c));
  if (!transport.ok) {
    logError(transport.code, { id: c.get('requestId'), call: 'deeplinkConsume' });
    return 'failed';
  }
  const request = portalRequest({
    baseUrl: transport.baseUrl,
    call: DEEPLINK_CONSUME_CALL,
    path: DEEPLINK_CONSUME_CALL.path,
    body: { token },
    bearer: null,
    country: c.get('country'),
    clientIp: c.req.header('cf-connecting-ip'),
    funnelOrigin: new URL(c.req.url).origin,
    idempotencyKey: null,
  });
  const timeout = portalTimeoutMs(DEEPLINK_CONSUME_CALL.timeoutMs, c.env.PORTAL_TIMEOUT_MS);
  const answer = await exchangeWithPortal(transport.send, request, timeout);
  if (answer.kind !== 'answered') return 'failed';
  if (answer.status === 410) return 'used';
  if (answer.status === 404) return 'unknown';
  const consumed = answer.status === 200 ? parsed(answer.text) : null;
  if (!consumed) return 'failed';
  setSessionToken(c, consumed.data.access_token);
  return 'logged_in';
}

function parsed(text: string) {
  try {
    return DEEPLINK_CONSUME_CALL.response.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

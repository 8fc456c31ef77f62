import type { Context, ExecutionContext } from 'hono';
import { Hono } from 'hono';
import { STORE_LINKS } from '../../screens/after/store-links';
import { DEEPLINK_CONSUME_CALL } from '../../shared/api/contract';
import { escapeHtml } from '../../shared/serialize-json';
import { exchangeWithPortal, portalTimeoutMs } from '../api/portal-exchange';
import { portalRequest } from '../api/portal-request';
import { type PortalFetch, portalTransport } from '../api/portal-transport';
import { setSessionToken } from '../api/session-cookie';
import type { AppEnv } from '../env';
import { logError } from '../log';
import { PLAIN_PAGE_HEADERS, plainPageHtml } from './plain-page';

/**
 * GET /app/login?token=…: where the success screen's deeplink leads (issue 5, "Opening the
 * deeplink's login token once logs the visitor in"). The portal marks the token used; a second
 * opening is refused with 410. Goes through the same transport as the `/api` calls, with the
 * contract's DEEPLINK_CONSUME_CALL.
 */

const MAX_TOKEN_LENGTH = 255;

type LoginOutcome = 'logged_in' | 'used' | 'unknown' | 'failed';

export function appLoginRoutes(deps: { portalFetch?: PortalFetch }): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/login', async (c) => {
    const token = c.req.query('token') ?? '';
    const outcome =
      token && token.length <= MAX_TOKEN_LENGTH ? await consume(c, token, deps) : 'unknown';
    c.get('logFields').detail = `deeplink_login_${outcome}`;
    // c.html, not a Response of its own, so the session cookie set above goes with it.
    return c.html(loginPageHtml(outcome), PAGES[outcome].status, PLAIN_PAGE_HEADERS);
  });
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

function executionContextOf(c: Context<AppEnv>): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined; // called without one (app.request in a test)
  }
}

const PAGES: Record<LoginOutcome, { status: 200 | 404 | 410 | 502; title: string; lead: string }> =
  {
    logged_in: {
      status: 200,
      title: 'You are logged in',
      lead: 'Open the app on this phone to continue. If it is not installed yet, get it here:',
    },
    used: {
      status: 410,
      title: 'This login link has already been used.',
      lead: 'Log in with your email in the app instead. Get the app here:',
    },
    unknown: {
      status: 404,
      title: 'This login link is not known.',
      lead: 'Check that you opened the whole link, or log in with your email in the app:',
    },
    failed: {
      status: 502,
      title: 'The login could not be completed.',
      lead: 'Please open the link again in a moment. Get the app here:',
    },
  };

const CSS =
  'body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1b1f}' +
  'main{max-width:480px;margin:0 auto;padding:32px 24px}h1{font-size:24px}a{color:#2f6bff}';

function loginPageHtml(outcome: LoginOutcome): string {
  const page = PAGES[outcome];
  const body =
    `<main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.lead)}</p><ul>` +
    `<li><a href="${escapeHtml(STORE_LINKS.appStore)}">App Store</a></li>` +
    `<li><a href="${escapeHtml(STORE_LINKS.googlePlay)}">Google Play</a></li></ul></main>`;
  return plainPageHtml({ title: page.title, body, css: CSS });
}

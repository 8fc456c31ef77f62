import { Hono } from 'hono';
import {
  DEEPLINK_CONSUME_CALL,
  type DeeplinkConsumeResponse,
  type DeeplinkResponse,
} from '../../shared/api/contract';
import { qrCodeDataUrl } from '../../shared/qr-code';
import { mintAccessToken } from '../account-tokens';
import { requireBearer, type SignedInEnv } from '../auth';
import { deeplinkUrl } from '../deeplink-qr';
import { emulatedFault } from '../faults';
import { validJsonBody } from '../json-body';
import { PortalError } from '../portal-error';
import {
  consumeDeeplinkToken,
  deeplinkTokenExists,
  findUnusedDeeplinkToken,
  insertDeeplinkTokenStatement,
} from '../store/deeplink-tokens';
import { randomToken } from '../tokens';

/** Where the app opens a deeplink when PORTAL_DEEPLINK_BASE is unset: beside the funnel. */
const DEFAULT_DEEPLINK_PATH = '/app/login';

export const deeplinkRoutes = new Hono<SignedInEnv>()
  /** GET /users/me/deeplink-qr-code (SPEC.md §7; bearer, §6). */
  .get(
    '/users/me/deeplink-qr-code',
    emulatedFault('deeplink-qr-code'),
    requireBearer(),
    async (c) => {
      const db = c.env.PORTAL_DB;
      const userId = c.var.userId;
      let token = await findUnusedDeeplinkToken(db, userId);
      if (!token) {
        token = randomToken();
        const createdAt = new Date().toISOString();
        await insertDeeplinkTokenStatement(db, { token, userId, createdAt }).run();
      }
      const link = deeplinkUrl(c.env.PORTAL_DEEPLINK_BASE || defaultDeeplinkBase(c.req), token);
      const answer: DeeplinkResponse = {
        data: { short_deeplink: link, qr_code: qrCodeDataUrl(link) },
      };
      return c.json(answer);
    },
  )
  /** POST /deeplink/consume {token}: signs the link's user in, once (shared/api/contract.ts). */
  .post(DEEPLINK_CONSUME_CALL.path, emulatedFault('deeplink-consume'), async (c) => {
    const { token } = await validJsonBody(c, DEEPLINK_CONSUME_CALL.request);
    const db = c.env.PORTAL_DB;
    const now = new Date().toISOString();
    const userId = await consumeDeeplinkToken(db, token, now);
    if (!userId) {
      if (await deeplinkTokenExists(db, token)) {
        throw new PortalError(410, 'deeplink_used', 'This login link has already been used.');
      }
      throw new PortalError(404, 'not_found', 'This login link is not known.');
    }
    const { accessToken, statement } = await mintAccessToken(db, userId, now);
    await statement.run();
    const answer: DeeplinkConsumeResponse = {
      data: { external_user_id: userId, access_token: accessToken },
    };
    return c.json(answer);
  });

/**
 * The funnel's origin as the worker names it in `x-funnel-origin`, the portal's own origin when
 * the header is missing or not an http(s) origin (a portal deployed on its own); with https,
 * as the contract takes only https links, but for the local funnel on plain http,
 * whose loopback link the contract takes so that `npm start`'s login link opens.
 */
function defaultDeeplinkBase(request: { url: string; header(name: string): string | undefined }) {
  const named = request.header('x-funnel-origin');
  const base = new URL(DEFAULT_DEEPLINK_PATH, named && isHttpOrigin(named) ? named : request.url);
  if (!LOOPBACK.has(base.hostname)) base.protocol = 'https:';
  return base.href;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function isHttpOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

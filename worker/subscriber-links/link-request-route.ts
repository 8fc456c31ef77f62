import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  freshUntil,
  isFresh,
  matchingSignature,
  readSignatureHeader,
} from '../../shared/api/hook-signature';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../shared/api/lifecycle';
import { logError, logLine } from '../../shared/log';
import { isTheme } from '../../shared/theme';
import type { Bindings } from '../env';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { lifecycleKey } from '../portal-client/lifecycle-key';
import type { LifecycleEnv } from '../request/envs';
import { subscriberLinkKey } from './link-key';
import {
  type LinkLook,
  REQUESTED_LINK_LIFETIME_SECONDS,
  signSubscriberLink,
  subscriberLinkUrl,
} from './link-token';

/** `{"subscription_id": "sub_…", …}` is a few dozen bytes; anything far bigger is no request of ours. */
const MAX_BODY_BYTES = 2048;

/** An answer of this route: JSON, never cached. */
function answer(body: Record<string, unknown>, status: 200 | 400 | 401 | 405 | 409 | 413 | 503) {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

/**
 * What a body `{"subscription_id": "…", "brand": "…", "language": "…"}` asks for: the
 * subscription (null: no request of ours), and the brand and language its link's pages wear
 * where the product API names both, a theme and a language the worker has (else none, and the
 * page takes the browser's, as before); `"requested_by_subscriber": true` for a link the
 * subscriber asked for by email, which lives a day.
 */
function linkAskedIn(
  body: string,
): { subscriptionId: string; look: LinkLook | null; requested: boolean } | null {
  let parsed: {
    subscription_id?: unknown;
    brand?: unknown;
    language?: unknown;
    requested_by_subscriber?: unknown;
  } | null;
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return null;
  }
  const id = parsed?.subscription_id;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
  const { brand, language } = parsed ?? {};
  const named =
    typeof brand === 'string' &&
    isTheme(brand) &&
    typeof language === 'string' &&
    SUPPORTED_LANGUAGES.includes(language);
  return {
    subscriptionId: id,
    look: named ? { theme: brand, language } : null,
    requested: parsed?.requested_by_subscriber === true,
  };
}

/**
 * Whether this signature was taken before (409), else takes it until it stops being fresh: one
 * fact in the RATE_LIMITER object `subscriber_link_request:<signature>`, so a captured request
 * replayed within its 5 minutes makes no second link. A store that cannot answer refuses (503).
 */
async function takeSignature(
  env: Bindings,
  signature: string,
  until: number,
  now: number,
): Promise<'taken' | 'replayed' | 'unavailable'> {
  try {
    const stub = env.RATE_LIMITER.get(
      env.RATE_LIMITER.idFromName(`subscriber_link_request:${signature}`),
    );
    if ((await stub.recall()) !== null) return 'replayed';
    await stub.remember('1', Math.max(1000, until - now));
    return 'taken';
  } catch (error) {
    logError('subscriber_link_store_failed', { detail: String(error) });
    return 'unavailable';
  }
}

/**
 * `POST /hooks/subscriber-links` (docs/product-api.md, "The subscriber's page"): the product API
 * asks for a fresh manage link to put in its own emails (a renewal reminder, a receipt it sends),
 * server to server, signed as the lifecycle hook's events are (`Geofunnel-Signature` under
 * LIFECYCLE_HMAC_KEY over `<t>.<raw body>`). Answers `{"url", "expires_at"}`. Forge: nobody
 * without the secret gets a link (401 after one HMAC over at most 2 KB). Replay: a signature
 * is taken once (409 after). Flood: only the product API can sign, and each link costs one
 * HMAC and one small Durable Object write.
 */
export function subscriberLinkRequestRoutes(
  options: { now?: () => number } = {},
): Hono<LifecycleEnv> {
  const now = options.now ?? Date.now;
  const routes = new Hono<LifecycleEnv>();
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => answer({ error: 'payload_too_large' }, 413),
  });
  routes.post('/', limit, async (c) => {
    const hookKey = lifecycleKey(c.env);
    const linkKey = subscriberLinkKey(c.env);
    if (!hookKey.ok || !linkKey.ok) return answer({ error: 'links_not_configured' }, 503);
    const body = await c.req.text();
    const header = readSignatureHeader(c.req.header(LIFECYCLE_SIGNATURE_HEADER) ?? '');
    const at = now();
    const signature = header.ok ? await matchingSignature(hookKey.key, header.header, body) : null;
    if (!header.ok || signature === null || !isFresh(header.header.timestamp, at)) {
      c.get('logFields').error = 'subscriber_link_request_unsigned';
      return answer({ error: 'bad_signature' }, 401);
    }
    const asked = linkAskedIn(body);
    if (asked === null) return answer({ error: 'invalid_request' }, 400);
    const taken = await takeSignature(c.env, signature, freshUntil(header.header.timestamp), at);
    if (taken === 'replayed') return answer({ error: 'replayed' }, 409);
    if (taken === 'unavailable') return answer({ error: 'unavailable' }, 503);
    // A link the subscriber asked for by email lives a day (docs/payments.md, "A link on request").
    const { token, link } = await signSubscriberLink(
      linkKey.key,
      'manage',
      asked.subscriptionId,
      at,
      asked.look,
      asked.requested ? REQUESTED_LINK_LIFETIME_SECONDS : undefined,
    );
    logLine({ id: c.get('requestId'), event: 'subscriber_link_made', link: link.linkId });
    const url = subscriberLinkUrl(new URL(c.req.url).origin, token);
    return answer({ url, expires_at: new Date(link.expiresAt * 1000).toISOString() }, 200);
  });
  routes.all('/', () => answer({ error: 'method_not_allowed' }, 405));
  return routes;
}

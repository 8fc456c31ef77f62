import type { ExecutionContext } from 'hono';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';

/** Sends one request to the portal the transport chose; rejects when there is no answer. */
export type PortalSend = (request: Request) => Promise<Response>;

/**
 * Answers portal requests in place of the network: a test's portal that is down, slow or broken
 * (AppOptions.portalFetch), or the development kit's embedded emulator (DevKit.portal), which
 * reads PORTAL_DB from the request's bindings.
 */
export type PortalFetch = (
  request: Request,
  env: Bindings,
  ctx: ExecutionContext | undefined,
) => Promise<Response>;

/** Base URL of requests to the embedded portal; it answers the §7 paths at its root. */
export const EMBEDDED_PORTAL_ORIGIN = 'https://portal.internal';

export type PortalTransport =
  | { ok: true; baseUrl: string; send: PortalSend }
  | { ok: false; code: 'portal_not_configured' };

/**
 * Where `/api` calls go (ARCHITECTURE.md, The portal and payments): PORTAL_URL when set, else
 * the embedded emulator, which only a development worker has (worker/dev.ts hands it in as the
 * stand-in) and which answers only when ENVIRONMENT is exactly 'development'. Any other worker
 * refuses (fail closed): the emulator would make throwaway accounts no app can sign
 * in to.
 *
 * `standIn` answers instead of the network (a test's portal) or instead of the missing emulator
 * (a test's portal, the development kit's emulator), behind the very same routes.
 */
export function portalTransport(
  env: Bindings,
  standIn: PortalFetch | undefined,
  ctx: ExecutionContext | undefined,
): PortalTransport {
  if (env.PORTAL_URL) {
    return {
      ok: true,
      baseUrl: env.PORTAL_URL.replace(/\/+$/, ''),
      send: standIn ? (request) => standIn(request, env, ctx) : (request) => fetch(request),
    };
  }
  if (!isDevelopment(env) || !standIn) return { ok: false, code: 'portal_not_configured' };
  return {
    ok: true,
    baseUrl: EMBEDDED_PORTAL_ORIGIN,
    send: (request) => standIn(request, env, ctx),
  };
}

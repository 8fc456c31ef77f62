import type { ExecutionContext } from 'hono';
import { type Bindings, isProduction } from '../env';
import { embeddedPortalFetch } from './embedded-portal';

/** Sends one request to the portal and resolves with its answer; rejects when there is none. */
export type PortalFetch = (request: Request) => Promise<Response>;

/** Base URL of requests to the embedded portal; it answers the §7 paths at its root. */
export const EMBEDDED_PORTAL_ORIGIN = 'https://portal.internal';

export type PortalTransport =
  | { ok: true; baseUrl: string; send: PortalFetch }
  | { ok: false; code: 'portal_not_configured' };

/**
 * Where `/api` calls go (ARCHITECTURE.md, The portal and payments): PORTAL_URL when set, else the
 * embedded emulator in this isolate. A production worker without PORTAL_URL refuses instead:
 * the emulator would make throwaway accounts that no app can sign in to.
 *
 * `replacement` (AppOptions.portalFetch) stands in for fetch or the emulator, so tests can put a
 * portal that is down, slow or broken behind the very same routes.
 */
export function portalTransport(
  env: Bindings,
  replacement: PortalFetch | undefined,
  ctx: ExecutionContext | undefined,
): PortalTransport {
  if (env.PORTAL_URL) {
    return {
      ok: true,
      baseUrl: env.PORTAL_URL.replace(/\/+$/, ''),
      send: replacement ?? ((request) => fetch(request)),
    };
  }
  if (isProduction(env)) return { ok: false, code: 'portal_not_configured' };
  return {
    ok: true,
    baseUrl: EMBEDDED_PORTAL_ORIGIN,
    send: replacement ?? ((request) => embeddedPortalFetch(request, env, ctx)),
  };
}

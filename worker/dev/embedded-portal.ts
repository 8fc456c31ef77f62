import type { ExecutionContext } from 'hono';
import { createPortal } from '../../portal/app';
import type { PortalBindings } from '../../portal/env';
import type { AppFetch } from '../dev-kit';
import type { Bindings } from '../env';
import { EMBEDDED_PORTAL_ORIGIN, type PortalFetch } from '../portal-client/portal-call';

/** The emulator holds no per-request state, so one app serves every request of the isolate. */
const portal = createPortal();

/** Answers a portal request in this isolate, from PORTAL_DB (development and tests only). */
export async function embeddedPortalFetch(
  request: Request,
  env: Bindings,
  ctx: ExecutionContext | undefined,
): Promise<Response> {
  return await portal.fetch(request, env as PortalBindings, ctx);
}

/**
 * DevKit.portal: the requests the transport addresses to the emulator (it does so only in
 * development without PORTAL_URL, worker/portal-client/portal-call.ts) are answered here; with
 * PORTAL_URL set, a development worker talks to that portal over the network like any other.
 */
export const developmentPortal: PortalFetch = (request, env, ctx) =>
  new URL(request.url).origin === EMBEDDED_PORTAL_ORIGIN
    ? embeddedPortalFetch(request, env, ctx)
    : fetch(request);

/** DevKit.portalFor: the emulator, its lifecycle events sent to `appFetch` in-process. */
export function developmentPortalFor(appFetch: AppFetch): PortalFetch {
  return (request, env, ctx) =>
    developmentPortal(
      request,
      { ...env, PORTAL_HOOK_FETCH: async (hook) => appFetch(hook, env, ctx) },
      ctx,
    );
}

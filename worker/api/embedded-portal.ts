import type { ExecutionContext, Hono } from 'hono';
import type { PortalBindings } from '../../portal/env';
import type { Bindings } from '../env';

type Portal = Hono<{ Bindings: PortalBindings }>;

/**
 * The emulator is imported on first use, so a worker pointed at PORTAL_URL never loads it. The
 * app is kept once built: it holds no per-request state, and a resolved value (unlike an
 * in-flight promise) can be shared across requests.
 */
let portal: Portal | null = null;

async function loadPortal(): Promise<Portal> {
  if (portal) return portal;
  const { createPortal } = await import('../../portal/app');
  portal = createPortal();
  return portal;
}

/** Answers a portal request in this isolate, from PORTAL_DB (development and tests only). */
export async function embeddedPortalFetch(
  request: Request,
  env: Bindings,
  ctx: ExecutionContext | undefined,
): Promise<Response> {
  const app = await loadPortal();
  return await app.fetch(request, env as PortalBindings, ctx);
}

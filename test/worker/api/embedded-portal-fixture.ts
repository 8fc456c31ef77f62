import { env } from 'cloudflare:workers';
import { beforeEach } from 'vitest';
import type { FaultCall } from '../../../portal/faults';
import { embeddedPortalFetch } from '../../../worker/dev/embedded-portal';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { freshApp } from '../fetch-app';
import { migrate } from '../fresh-storage';
import type { SeenRequest } from './fake-portal';

/** `reset()` wipes D1 with everything else; each test starts from the migrated, empty schema. */
export function migratePortalBeforeEach(): void {
  beforeEach(async () => {
    await migrate(env.PORTAL_DB, env.TEST_MIGRATIONS);
  });
}

/**
 * The worker in front of the real embedded portal (real D1), with every request the portal
 * receives recorded, so a test can see what the worker sent (e.g. no bearer on the polling result).
 */
export function workerWithEmbeddedPortal(bindings: Partial<Cloudflare.Env> = {}) {
  const seen: SeenRequest[] = [];
  const appEnv = { ...env, ...bindings };
  const portalFetch: PortalFetch = async (request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: new Headers(request.headers),
      body: await request.clone().text(),
    });
    return embeddedPortalFetch(request, appEnv, undefined);
  };
  return { seen, fetchApp: freshApp({ portalFetch }, bindings) };
}

/** Switches the emulator's failure on for the next `count` calls named `call`. */
export async function failNext(call: FaultCall, count = 1): Promise<void> {
  await env.PORTAL_DB.prepare('INSERT INTO emulator_faults (call, remaining) VALUES (?, ?)')
    .bind(call, count)
    .run();
}

export async function userCount(): Promise<number> {
  const row = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM users').first<{ n: number }>();
  return row?.n ?? 0;
}

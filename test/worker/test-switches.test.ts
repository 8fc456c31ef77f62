import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../worker/app';
import developmentEntry from '../../worker/dev';
import { developmentKit } from '../../worker/dev/kit';
import type { DevKit } from '../../worker/dev-kit';
import productionEntry from '../../worker/index';
import type { OtherPagesEnv } from '../../worker/request/envs';
import { migratePortalBeforeEach } from './api/embedded-portal-fixture';
import { expectRefusal } from './api/fake-portal';
import { captureLogsPerTest } from './api/log-capture';
import { ORIGIN } from './fetch-app';

/**
 * The test switches (the embedded portal, the test gateway and its framing exception) are on only
 * when ENVIRONMENT is exactly 'development', and only in the development entry (worker/dev.ts).
 * The production entry (worker/index.ts) never has the portal or the gateway, whatever
 * ENVIRONMENT says. `?custom_lng=` is no test switch: SPEC.md §2 honours it outside production,
 * so on staging as in development, in either entry.
 */

const logs = captureLogsPerTest();

type Entry = { fetch(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): unknown };

/** One request to an entry's default export, as the runtime makes it, under `environment`. */
async function ask(
  entry: Entry,
  environment: string | undefined,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const bindings = { ...env, ENVIRONMENT: environment, PORTAL_URL: undefined };
  const response = await entry.fetch(
    new Request(new URL(path, ORIGIN), { headers }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response as Response;
}

const PORTAL = 'https://portal.example.com/api/v1';

const ENTRIES = [
  ['the production entry', productionEntry],
  ['the development entry', developmentEntry],
] as const;

/** Not exactly 'development': unset, the staging environment, a capital letter. */
const NOT_DEVELOPMENT = [
  ['unset', undefined],
  ['staging', 'staging'],
  ['Production', 'Production'],
] as const;

describe.each(ENTRIES)('%s', (_, entry) => {
  describe.each(NOT_DEVELOPMENT)('with ENVIRONMENT %s', (_, environment) => {
    it('has no test gateway: 404, and its pages may not be framed', async () => {
      const response = await ask(entry, environment, '/test-gateway/card-frame');
      expect(response.status).toBe(404);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).not.toContain("frame-ancestors 'self'");
    });

    it('has no embedded portal: an /api call without PORTAL_URL is 503 portal_not_configured', async () => {
      const response = await ask(entry, environment, '/api/cf-country', { 'cf-ipcountry': 'FR' });
      await expectRefusal(response, 503, 'portal_not_configured');
      expect(logs.errors()).toContainEqual(
        expect.objectContaining({ error: 'portal_not_configured', call: 'country' }),
      );
    });

    it('has no kit geocoder: /api/geocode without a key is 503, the failure logged', async () => {
      const response = await ask(entry, environment, '/api/geocode?city=London&country=GB');
      await expectRefusal(response, 503, 'geocoding_not_configured');
      expect(logs.errors()).toContainEqual(
        expect.objectContaining({ error: 'geocoding_failed', reason: 'not_configured' }),
      );
    });
  });

  it('honours ?custom_lng= on staging (SPEC.md §2: outside production only)', async () => {
    const response = await ask(entry, 'staging', '/?custom_lng=de', { 'accept-language': 'en' });
    expect(await response.text()).toContain('<html lang="de"');
  });

  it.each([
    ['production', 'production'],
    ['unset', undefined],
    ['Production', 'Production'],
  ])('ignores ?custom_lng= with ENVIRONMENT %s', async (_, environment) => {
    const response = await ask(entry, environment, '/?custom_lng=de', { 'accept-language': 'en' });
    expect(await response.text()).toContain('<html lang="en"');
  });
});

describe('the production entry with ENVIRONMENT=development', () => {
  it('still carries neither the test gateway nor the embedded portal', async () => {
    expect((await ask(productionEntry, 'development', '/test-gateway/card-frame')).status).toBe(
      404,
    );
    await expectRefusal(
      await ask(productionEntry, 'development', '/api/cf-country'),
      503,
      'portal_not_configured',
    );
  });
});

describe('the development entry with ENVIRONMENT=development', () => {
  migratePortalBeforeEach();

  it('serves the test gateway, framed by our own pages only', async () => {
    const response = await ask(developmentEntry, 'development', '/test-gateway/card-frame');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });

  it('answers /api from the embedded portal', async () => {
    const response = await ask(developmentEntry, 'development', '/api/cf-country', {
      'cf-ipcountry': 'FR',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ country_code: 'FR' });
  });

  it("answers /api/geocode from the kit's geocoder, without a key", async () => {
    const response = await ask(
      developmentEntry,
      'development',
      '/api/geocode?city=Paris&country=FR',
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ location: { lat: 48.8566, lng: 2.3522 } });
  });

  it('honours ?custom_lng=', async () => {
    const response = await ask(developmentEntry, 'development', '/?custom_lng=de', {
      'accept-language': 'en',
    });
    expect(await response.text()).toContain('<html lang="de"');
  });

  it('is the worker these tests run (vitest.config.ts main)', async () => {
    const main = (exports as unknown as { default: { fetch(r: Request): Promise<Response> } })
      .default;
    const response = await main.fetch(new Request(`${ORIGIN}/test-gateway/card-frame`));
    expect(response.status).toBe(200);
  });

  it('talks to PORTAL_URL when it is set, not to the emulator', async () => {
    const network = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(Response.json({ country_code: 'JP' }));
    try {
      const ctx = createExecutionContext();
      const bindings = { ...env, ENVIRONMENT: 'development', PORTAL_URL: PORTAL };
      const response = await developmentEntry.fetch(
        new Request(`${ORIGIN}/api/cf-country`, { headers: { 'cf-ipcountry': 'FR' } }),
        bindings,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      // The emulator would have answered the visitor's FR.
      expect(await response.json()).toEqual({ country_code: 'JP' });
      expect(new URL((network.mock.calls[0]![0] as Request).url).href).toBe(`${PORTAL}/cf-country`);
    } finally {
      network.mockRestore();
    }
  });
});

describe("a development kit's parts", () => {
  it('reach every handler as c.get("devKit"); the production app has none', async () => {
    const seen: string[] = [];
    const kit: DevKit = {
      ...developmentKit,
      testGatewayRoutes: () =>
        new Hono<OtherPagesEnv>().get('/kit', (c) => {
          seen.push(c.get('devKit') === kit ? 'this kit' : 'another');
          return c.text('ok');
        }),
    };
    const development = createApp({ devKit: kit });
    expect((await development.request('/test-gateway/kit', {}, env)).status).toBe(200);
    expect(seen).toEqual(['this kit']);
    expect((await createApp().request('/test-gateway/kit', {}, env)).status).toBe(404);
  });
});

import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requestLog } from '../../../worker/middleware/request-log';
import type { AppEnv } from '../../../worker/request/envs';
import { APPSFLYER_SMART_SCRIPT_URL, vendorRoutes } from '../../../worker/routes/vendor';
import { freshApp } from '../fetch-app';

const SCRIPT = '!function(){window.AF_SMART_SCRIPT={generateOneLinkURL:function(){}}}();';
const PATH = 'https://funnel.test/vendor/appsflyer-smart-script.js';

let cacheCount = 0;

/** The route on its own app, with a fake AppsFlyer CDN and a cache of its own. */
function smartScriptApp(answer: () => Promise<Response> | Response) {
  const upstream = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => answer());
  const cacheName = `smart-script-${++cacheCount}`;
  const app = new Hono<AppEnv>();
  app.use(requestLog());
  app.route('/vendor', vendorRoutes({ fetch: upstream, cache: () => caches.open(cacheName) }));
  const get = (bindings: Partial<Cloudflare.Env> = { APPSFLYER_DEV_KEY: 'af-dev-key' }) =>
    app.request(PATH, {}, { ...env, ...bindings });
  return { get, upstream };
}

const javascript = (body = SCRIPT) =>
  new Response(body, { headers: { 'content-type': 'application/javascript' } });

afterEach(() => vi.restoreAllMocks());

describe('GET /vendor/appsflyer-smart-script.js, from our own origin', () => {
  it('answers AppsFlyer’s current smart script as JavaScript, cacheable for a day', async () => {
    const { get, upstream } = smartScriptApp(() => javascript());
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await response.text()).toBe(SCRIPT);
    expect(String(upstream.mock.calls[0]?.[0])).toBe(APPSFLYER_SMART_SCRIPT_URL);
    expect(APPSFLYER_SMART_SCRIPT_URL).toBe(
      'https://onelinksmartscript.appsflyer.com/onelink-smart-script-latest.js',
    );
  });

  it('fetches it once: later visitors get the cached copy', async () => {
    const { get, upstream } = smartScriptApp(() => javascript());
    await (await get()).text();
    const second = await get();
    expect(await second.text()).toBe(SCRIPT);
    expect(second.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(upstream).toHaveBeenCalledOnce();
  });

  it('is not there (404) without APPSFLYER_DEV_KEY, and asks AppsFlyer nothing', async () => {
    const { get, upstream } = smartScriptApp(() => javascript());
    expect((await get({ APPSFLYER_DEV_KEY: undefined })).status).toBe(404);
    expect((await get({ APPSFLYER_DEV_KEY: '  ' })).status).toBe(404);
    expect(upstream).not.toHaveBeenCalled();
  });

  it.each([
    [
      'AppsFlyer is unreachable',
      'appsflyer_script_unreachable',
      () => Promise.reject(new TypeError('fetch failed')),
    ],
    [
      'AppsFlyer answers 503',
      'appsflyer_script_unavailable',
      () => new Response('down', { status: 503 }),
    ],
    [
      'AppsFlyer answers a page, not a script',
      'appsflyer_script_bad_response',
      () => new Response('<html>', { headers: { 'content-type': 'text/html' } }),
    ],
  ])('502 with a logged code when %s, and nothing cached', async (_, code, answer) => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    const { get, upstream } = smartScriptApp(answer);
    const response = await get();
    expect(response.status).toBe(502);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const lines = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', error: code }));
    expect(lines).toContainEqual(expect.objectContaining({ status: 502, error: code }));
    await get();
    expect(upstream).toHaveBeenCalledTimes(2);
  });

  it('is mounted in the worker ahead of the pages: a plain 404 there without the key', async () => {
    const response = await freshApp(
      {},
      { APPSFLYER_DEV_KEY: '' },
    )('/vendor/appsflyer-smart-script.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  });
});

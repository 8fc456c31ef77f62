import { Hono } from 'hono';
import { logError } from '../../shared/log';
import type { VendorEnv } from '../request/envs';

/**
 * AppsFlyer's OneLink Smart Script (SPEC.md §3 Stored keys: AF_SMART_SCRIPT), fetched from
 * AppsFlyer's CDN and served from our own origin: no third-party script host for the
 * page to trust, and one copy per colo instead of one fetch per visitor.
 */
export const APPSFLYER_SMART_SCRIPT_URL =
  'https://onelinksmartscript.appsflyer.com/onelink-smart-script-latest.js';

const SMART_SCRIPT_PATH = '/appsflyer-smart-script.js';

/** How long a fetched copy is reused, at the edge and in the browser. */
const CACHE_SECONDS = 24 * 60 * 60;
/** The script is some tens of kilobytes; a bigger answer is not it. */
const MAX_SCRIPT_BYTES = 512 * 1024;
const UPSTREAM_TIMEOUT_MS = 5000;

export interface VendorOptions {
  /** Reaches AppsFlyer's CDN; tests hand in a fake so none reaches the internet. */
  fetch?: typeof fetch;
  /** The edge cache; caches.default unless a test opens one of its own. */
  cache?: () => Promise<Cache>;
}

type Fetched = { ok: true; script: string } | { ok: false; code: string; detail: string };

async function fetchSmartScript(fetchScript: typeof fetch): Promise<Fetched> {
  let upstream: Response;
  try {
    upstream = await fetchScript(APPSFLYER_SMART_SCRIPT_URL, {
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, code: 'appsflyer_script_unreachable', detail: String(error) };
  }
  if (!upstream.ok) {
    await upstream.body?.cancel();
    return { ok: false, code: 'appsflyer_script_unavailable', detail: `status ${upstream.status}` };
  }
  const type = upstream.headers.get('content-type') ?? '';
  const script = /javascript|ecmascript/i.test(type) ? await upstream.text() : null;
  if (script === null || script.length === 0 || script.length > MAX_SCRIPT_BYTES) {
    await upstream.body?.cancel().catch(() => {});
    return { ok: false, code: 'appsflyer_script_bad_response', detail: `type ${type}` };
  }
  return { ok: true, script };
}

/**
 * GET /vendor/appsflyer-smart-script.js: 404 without APPSFLYER_DEV_KEY; else the cached copy,
 * or AppsFlyer's current one (cached for a day); 502 with a logged code when AppsFlyer cannot
 * give it and no copy is cached.
 */
export function vendorRoutes(options: VendorOptions = {}): Hono<VendorEnv> {
  const fetchScript = options.fetch ?? ((input, init) => fetch(input, init));
  const openCache = options.cache ?? (async () => caches.default);
  return new Hono<VendorEnv>().get(SMART_SCRIPT_PATH, async (c) => {
    if (!c.env.APPSFLYER_DEV_KEY?.trim()) return c.text('Not found\n', 404);
    const cache = await openCache();
    const key = new Request(new URL(c.req.path, c.req.url).href);
    const cached = await cache.match(key);
    if (cached) return cached;
    const fetched = await fetchSmartScript(fetchScript);
    if (!fetched.ok) {
      c.get('logFields').error = fetched.code;
      logError(fetched.code, { id: c.get('requestId'), detail: fetched.detail.slice(0, 300) });
      return c.text('AppsFlyer smart script unavailable\n', 502, { 'cache-control': 'no-store' });
    }
    const response = new Response(fetched.script, {
      headers: {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': `public, max-age=${CACHE_SECONDS}`,
      },
    });
    await cache.put(key, response.clone());
    return response;
  });
}

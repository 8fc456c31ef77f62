import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import { API_PATHS } from '../../shared/api/paths';
import { CONSOLE_API } from '../../shared/console-api/config';

/**
 * `npm run smoke -- --url <origin>`: what an operator checks right after a deploy (docs/operate.md,
 * "After a deploy"), each a request a visitor's browser or the console makes, and what a broken
 * deploy would answer instead. Nothing is written: the collector's batch carries one event dated
 * past the window the collector keeps (answered, stored nowhere), and the console is only asked
 * whether it lets a stranger in.
 */

/** One check's verdict: what it saw, in a line. */
export interface SmokeResult {
  name: string;
  ok: boolean;
  detail: string;
}

export interface SmokeTarget {
  origin: string;
  /**
   * Whether the target is npm start's development worker, where the console opens without
   * Cloudflare Access by design; anywhere else the console must refuse a stranger.
   */
  development: boolean;
  fetch?: typeof fetch;
}

/** Past the collector's 7-day window (worker/collector/intake-rules.ts): taken, kept nowhere. */
const OLD_EVENT_MS = 8 * 24 * 3600_000;

/** The headers of a same-origin request, as the funnel's own pages send them. */
function sameOrigin(origin: string): Record<string, string> {
  return { origin, 'sec-fetch-site': 'same-origin', 'user-agent': 'geofunnel-smoke' };
}

type Check = (target: Required<SmokeTarget>) => Promise<SmokeResult>;

/** The error code an answer's JSON names (`{error: "code"}` or `{error: {code}}`), else ''. */
async function errorCodeOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  const error = body?.error;
  if (typeof error === 'string') return ` ${error}`;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? ` ${code}` : '';
}

const landing: Check = async ({ origin, fetch }) => {
  const name = 'landing: GET /';
  const response = await fetch(new URL('/', origin), { headers: { accept: 'text/html' } });
  const html = await response.text();
  const problems = [
    response.status === 200 ? null : `answered ${response.status}`,
    (response.headers.get('content-type') ?? '').startsWith('text/html') ? null : 'not HTML',
    response.headers.get('content-security-policy') ? null : 'no Content-Security-Policy',
    html.includes('<main') && html.includes('data-island=') ? null : 'no screen in the page',
  ].filter((problem) => problem !== null);
  return problems.length === 0
    ? { name, ok: true, detail: `200, ${html.length} bytes of HTML with its islands` }
    : { name, ok: false, detail: problems.join('; ') };
};

const productApi: Check = async ({ origin, fetch }) => {
  const name = `product API: GET /api${API_PATHS.country}`;
  const response = await fetch(new URL(`/api${API_PATHS.country}`, origin), {
    headers: sameOrigin(origin),
  });
  if (response.status !== 200) {
    return {
      name,
      ok: false,
      detail: `answered ${response.status}${await errorCodeOf(response)}: the worker cannot reach the product API, or refuses the call`,
    };
  }
  const body = (await response.json().catch(() => null)) as { country_code?: unknown } | null;
  return body !== null && 'country_code' in body
    ? {
        name,
        ok: true,
        detail: `200 through the product API (country ${String(body.country_code)})`,
      }
    : { name, ok: false, detail: '200 without country_code: not the product API answering' };
};

const collector: Check = async ({ origin, fetch }) => {
  const name = `collector: POST ${COLLECTOR_PATH}`;
  const at = Date.now() - OLD_EVENT_MS;
  const event = {
    event_type: 'screen__load',
    insert_id: `smoke-${crypto.randomUUID()}`,
    time: at,
    session_id: at,
    device_id: 'geofunnel-smoke',
    user_id: null,
    event_properties: { screen_name: 'smoke' },
  };
  const response = await fetch(new URL(COLLECTOR_PATH, origin), {
    method: 'POST',
    headers: { ...sameOrigin(origin), 'content-type': 'application/json' },
    body: JSON.stringify({ events: [event] }),
  });
  const body = (await response.json().catch(() => null)) as { accepted?: unknown } | null;
  return response.status === 200 && typeof body?.accepted === 'number'
    ? {
        name,
        ok: true,
        detail: '200: a batch is taken (its one event dated past the window, kept nowhere)',
      }
    : {
        name,
        ok: false,
        detail: `answered ${response.status}: beacons are lost (EVENTS_QUEUE, the rate limiter, or the route)`,
      };
};

const consoleAccess: Check = async ({ origin, fetch, development }) => {
  const name = `console: GET ${CONSOLE_API.state} without signing in`;
  const response = await fetch(new URL(CONSOLE_API.state, origin), { headers: sameOrigin(origin) });
  const code = await errorCodeOf(response.clone());
  if (response.status === 401) {
    return { name, ok: true, detail: `401${code}: only Cloudflare Access lets anyone in` };
  }
  if (response.status === 200) {
    return development
      ? { name, ok: true, detail: '200: open, as npm start leaves it (nobody signs in locally)' }
      : {
          name,
          ok: false,
          detail:
            '200: the console answers without Cloudflare Access: anyone can publish (is ENVIRONMENT development?)',
        };
  }
  return {
    name,
    ok: false,
    detail: `answered ${response.status}${code}: set ACCESS_TEAM_DOMAIN and ACCESS_AUD (docs/operate.md)`,
  };
};

const CHECKS: readonly Check[] = [landing, productApi, collector, consoleAccess];

/** Every check against the target, in order; a request that fails outright is that check's. */
export async function runSmoke(target: SmokeTarget): Promise<SmokeResult[]> {
  const full = { fetch: globalThis.fetch, ...target };
  const results: SmokeResult[] = [];
  for (const check of CHECKS) {
    try {
      results.push(await check(full));
    } catch (error) {
      results.push({
        name: check.name,
        ok: false,
        detail: `no answer: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  return results;
}

/** The results as the command prints them: one line each, ✓ or ✗. */
export function formatSmoke(results: readonly SmokeResult[]): string {
  return results
    .map((result) => `${result.ok ? '✓' : '✗'} ${result.name}: ${result.detail}`)
    .join('\n');
}

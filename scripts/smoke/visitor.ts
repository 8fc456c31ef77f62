import { SMOKE_AGENT } from '../../shared/analytics/smoke';

/**
 * One smoke run's browser (scripts/smoke/checks.ts): the cookies the worker set kept across its
 * requests as a browser keeps them, every request with the smoke's agent (so the worker leaves it
 * out of the results, shared/analytics/smoke.ts), and the calls a page of the funnel makes
 * same-origin.
 */
export interface SmokeVisitor {
  origin: string;
  /** A page load: no Origin or Sec-Fetch-Site, as a navigation sends none of its own. */
  open(path: string): Promise<Response>;
  /** A call from the funnel's own page: GET without `body`, else POST of `body` as JSON. */
  call(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The value of a cookie the worker set, or undefined. */
  cookie(name: string): string | undefined;
}

export function smokeVisitor(origin: string, fetch: typeof globalThis.fetch): SmokeVisitor {
  const cookies = new Map<string, string>();
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  async function send(path: string, init: RequestInit & { headers: Record<string, string> }) {
    const response = await fetch(new URL(path, origin), {
      ...init,
      redirect: 'manual',
      headers: {
        'user-agent': SMOKE_AGENT,
        ...(cookies.size > 0 ? { cookie: cookieHeader() } : {}),
        ...init.headers,
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }
  return {
    origin,
    open: (path) => send(path, { headers: { accept: 'text/html' } }),
    call: (path, body, headers = {}) =>
      send(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          origin,
          'sec-fetch-site': 'same-origin',
          referer: new URL('/', origin).href,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    cookie: (name) => cookies.get(name),
  };
}

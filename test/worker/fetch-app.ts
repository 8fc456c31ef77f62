import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { type AppOptions, createApp } from '../../worker/app';
import type { CONFIG_KEYS } from '../../worker/config/load';
import { developmentKit } from '../../worker/dev/kit';
import { recordingQueue } from './collector/recording-queue';

export const ORIGIN = 'https://funnel.test';

/**
 * A fresh worker app (own config cache, own last-known-good) bound to this test run's real KV,
 * so one test's config never leaks into the next. It is the development entry's app
 * (worker/dev.ts: with the development kit, so the embedded portal and the test gateway answer
 * under ENVIRONMENT=development). `bindings` replace some of the environment's (ENVIRONMENT,
 * PORTAL_URL, GOOGLE_CLIENT_ID, ...) for this app only.
 */
export function freshApp(options: AppOptions = {}, bindings: Partial<Cloudflare.Env> = {}) {
  return fetcherOf(createApp({ devKit: developmentKit, ...options }), bindings);
}

/**
 * A fresh app as the production entry builds it (worker/index.ts: no development kit), bound
 * like freshApp's; pass `{ ENVIRONMENT: 'production' }` among `bindings` to leave development.
 */
export function productionApp(
  options: Omit<AppOptions, 'devKit'> = {},
  bindings: Partial<Cloudflare.Env> = {},
) {
  return fetcherOf(createApp(options), bindings);
}

/**
 * EVENTS_QUEUE is a recording queue unless a test passes its own. The project's real queue
 * belongs to a workerd that every file shares: it delivers up to 5 s later (max_batch_timeout),
 * into whichever file runs then, whose events a test may count (events-cli.test.ts did, and
 * failed now and then). The real queue and its consumer are tested in a workerd of their own
 * (real-queue.test.ts, the worker-apart project).
 */
function fetcherOf(app: ReturnType<typeof createApp>, bindings: Partial<Cloudflare.Env>) {
  const appEnv = { ...env, EVENTS_QUEUE: recordingQueue().queue, ...bindings };
  return async function fetchApp(path: string, init: RequestInit = {}): Promise<Response> {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(new URL(path, ORIGIN), init), appEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
}

/** The exposure ticket a page hands its script (PageState.exposureTicket), if any. */
export function exposureTicketIn(html: string): string | null {
  return /"exposureTicket":"([^"]+)"/.exec(html)?.[1] ?? null;
}

/**
 * What a page's script does once its islands have hydrated (islands/exposure-confirmation.ts):
 * sends back the page's exposure ticket, if it has one, with the visitor's cookies (the page
 * request's `cookie`, and those its answer set) from the page's address and agent. Reads a copy
 * of the answer: `page` is handed back unread.
 */
export async function runPageScript(
  fetchApp: (path: string, init?: RequestInit) => Promise<Response>,
  page: Response,
  { cookie = '', headers = {} }: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  if (page.status !== 200) return page;
  const ticket = exposureTicketIn(await page.clone().text());
  if (ticket === null) return page;
  const jar = new Map(
    cookie
      .split(';')
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  for (const [name, value] of setCookies(page)) jar.set(name, value);
  const { 'user-agent': agent, 'cf-connecting-ip': ip } = headers;
  const confirmed = await fetchApp('/e/exposure', {
    method: 'POST',
    body: ticket,
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
      ...(agent ? { 'user-agent': agent } : {}),
      ...(ip ? { 'cf-connecting-ip': ip } : {}),
      cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    },
  });
  expect(confirmed.status).toBe(204);
  return page;
}

/** `name=value` pairs of every Set-Cookie header. */
export function setCookies(response: Response): Map<string, string> {
  return new Map(
    response.headers.getSetCookie().map((cookie) => {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** The addresses ownAddress has handed out in this isolate. */
let addresses = 0;

/**
 * A client address no other caller in this isolate gets (198.18.0.0/15, kept for tests): the rate
 * limits count per address, so tests that share storage and each take their own never meet
 * another's counters.
 */
export function ownAddress(): string {
  addresses += 1;
  return `198.18.${(addresses >> 8) & 255}.${addresses & 255}`;
}

export function putConfig(key: keyof typeof CONFIG_KEYS, value: unknown): Promise<void> {
  return env.FUNNEL_CONFIG.put(key, typeof value === 'string' ? value : JSON.stringify(value));
}

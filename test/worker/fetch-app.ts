import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
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

export function putConfig(key: keyof typeof CONFIG_KEYS, value: unknown): Promise<void> {
  return env.FUNNEL_CONFIG.put(key, typeof value === 'string' ? value : JSON.stringify(value));
}

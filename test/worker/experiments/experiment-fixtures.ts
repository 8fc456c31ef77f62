import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { asDeliveries, consumer } from '../collector/consume';
import { NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, ORIGIN, putConfig } from '../fetch-app';

/** A current desktop Chrome's agent: a browser, not a bot. */
export const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Two arms, half each; the draw is `random() < 0.5` → default, else lp17. */
export const TWO_WAY = {
  version: 'v1',
  defaultVariant: 'default',
  phase: 1,
  variants: { default: { weight: 50 }, lp17: { weight: 50, flow: 'lp17ch17pr5' } },
};

/**
 * A browser tab (or several: they share the jar) through `fetchApp`: the cookies the worker sets
 * are kept and sent back, as a browser would, with Chrome's agent unless `headers` say otherwise.
 */
export function aBrowser(
  fetchApp: ReturnType<typeof freshApp>,
  cookies = new Map<string, string>(),
) {
  function get(path: string, headers: Record<string, string> = {}) {
    return request(path, { headers });
  }

  /** The answer's status and body, read to the end as a browser would. */
  async function request(path: string, init: RequestInit & { cf?: unknown } = {}) {
    const response = await fetchApp(path, {
      ...init,
      headers: {
        'user-agent': CHROME,
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: response.status, body: await response.text() };
  }

  return {
    get,
    request,
    cookies,
    visitorId: () => cookies.get('userUuid'),
    variant: () => cookies.get('gf_variant'),
  };
}

export interface ExposureRow {
  visitor_id: string;
  phase: number;
  variant: string;
  config_version: string;
  exposed_at: number;
  reached_lookup: number;
  signed_up: number;
  reached_checkout: number;
  purchased: number;
}

export async function exposureRows(): Promise<ExposureRow[]> {
  const { results } = await env.EVENTS_DB.prepare(
    'SELECT * FROM exposures ORDER BY exposed_at, phase, visitor_id',
  ).all<ExposureRow>();
  return results;
}

export async function exposureOf(visitorId: string | undefined): Promise<ExposureRow | null> {
  return env.EVENTS_DB.prepare('SELECT * FROM exposures WHERE visitor_id = ?1')
    .bind(visitorId ?? '')
    .first<ExposureRow>();
}

export const NO_FLAGS = { reached_lookup: 0, signed_up: 0, reached_checkout: 0, purchased: 0 };

/** What the page's tracker sends `/e`. */
export const SAME_ORIGIN = {
  'content-type': 'application/json',
  origin: ORIGIN,
  'sec-fetch-site': 'same-origin',
};

/** Each test of the file starts with TWO_WAY live, no experiment rows, and its log lines silenced. */
export function startEachTestAfresh() {
  beforeEach(async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await putConfig('split', TWO_WAY);
    await env.EVENTS_DB.batch(
      ['exposures', 'experiment_arms', 'experiment_purchases', 'experiment_revenue'].map((table) =>
        env.EVENTS_DB.prepare(`DELETE FROM ${table}`),
      ),
    );
  });
  afterEach(() => vi.restoreAllMocks());
}

/** A funnel whose events are kept as the queue would carry them, and its consumer. */
export function funnel(random = 0.2) {
  const queue = recordingQueue();
  const fetchApp = freshApp(
    { random: () => random, now: () => NOW },
    { EVENTS_QUEUE: queue.queue },
  );
  let delivered = 0;
  return {
    fetchApp,
    /** A browser exposed on the first screen. */
    async exposedVisitor() {
      const browser = aBrowser(fetchApp);
      await browser.get('/');
      return browser;
    },
    /** POST /e as the browser's tracker does, with its cookies. */
    async track(browser: ReturnType<typeof aBrowser>, events: CollectedEvent[]) {
      const answer = await browser.request('/e', {
        method: 'POST',
        headers: SAME_ORIGIN,
        body: JSON.stringify({ events }),
      });
      expect(answer.status).toBe(200);
    },
    /** Runs the consumer on what was queued since the last call. */
    async consume(): Promise<QueuedEvent[]> {
      const fresh = queue.events.slice(delivered);
      delivered = queue.events.length;
      await consumer().run(asDeliveries(fresh));
      return fresh;
    },
  };
}

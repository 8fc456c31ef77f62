import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import {
  EXPERIMENT_SHARD_COUNT,
  shardName,
  shardOfVisitor,
} from '../../../worker/experiments/assignment/assign';
import {
  confirmVisitorExposures,
  recordVisitorExposures,
} from '../../../worker/experiments/exposure/exposure-store';
import { experimentTotals } from '../../../worker/experiments/results/totals';
import type { ExperimentExposure } from '../../../worker/experiments/store/every-experiment-statements';
import {
  experimentStores,
  forgetLegacyCheck,
  readResults,
  shardStub,
  toEachShard,
} from '../../../worker/experiments/store/experiment-stores';
import { keptRoute, unsigned } from '../../fixtures/signed-cookies';
import { asDeliveries, consumer } from '../collector/consume';
import { NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, ORIGIN, putConfig, runPageScript } from '../fetch-app';
import { mayHoldRows } from '../written-shards';

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
 * Its pages' script runs, as far as the worker can tell: a page with an exposure ticket sends it
 * back (islands/exposure-confirmation.ts), from the same address and agent. `script: false` is a
 * client that only loads pages (curl, a script minting ids).
 */
export function aBrowser(
  fetchApp: ReturnType<typeof freshApp>,
  cookies = new Map<string, string>(),
  { script = true }: { script?: boolean } = {},
) {
  function get(path: string, headers: Record<string, string> = {}) {
    return request(path, { headers });
  }

  /** The answer's status and body, read to the end as a browser would. */
  async function request(path: string, init: RequestInit & { cf?: unknown } = {}) {
    const headers = {
      'user-agent': CHROME,
      ...(init.headers as Record<string, string> | undefined),
    };
    const response = await fetchApp(path, {
      ...init,
      headers: { ...headers, cookie: cookieHeader() },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      // A cookie cleared (Max-Age=0) is gone, as a browser drops it.
      if (/;\s*Max-Age=0(;|$)/i.test(cookie)) cookies.delete(pair.slice(0, at));
      else cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    if (script && (init.method ?? 'GET') === 'GET') {
      await runPageScript(fetchApp, response, { cookie: cookieHeader(), headers });
    }
    return { status: response.status, body: await response.text() };
  }

  function cookieHeader() {
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** POST /e/exposure with `ticket`, as a page's script would: its answer's status. */
  async function confirm(ticket: string) {
    const response = await fetchApp('/e/exposure', {
      method: 'POST',
      body: ticket,
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        'user-agent': CHROME,
        cookie: cookieHeader(),
      },
    });
    await response.arrayBuffer();
    return response.status;
  }

  return {
    get,
    request,
    confirm,
    cookies,
    visitorId: () => cookies.get('userUuid'),
    /** The split's variant the visitor is pinned to (gf_variant, signed), or undefined. */
    variant: () => unsigned(cookies.get('gf_variant')),
    /** The route kept for the visit (gf_route, signed), or undefined. */
    route: () => keptRoute(cookies.get('gf_route')),
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
  route: string | null;
  source: string | null;
}

/**
 * A price test in the paywall layer: `cheap` offers the 3-day intro; a draw of 0.2 is `current`,
 * 0.7 `cheap` while both have weight.
 */
export const PRICE_TEST: ExperimentDocument = {
  name: 'Paywall: 3-day intro at 2.99',
  status: 'running',
  layer: 'paywall',
  audience: {},
  coverage: 1,
  seed: 'pw-price',
  phase: 1,
  control: 'current',
  variants: {
    current: { weight: 1, change: {} },
    cheap: { weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
  },
};

/** Publishes `experiments` as the live experiments document, as the console would. */
export function putExperiments(experiments: Record<string, ExperimentDocument>): Promise<void> {
  const document: ExperimentsDocument = { version: 'e1', experiments };
  return env.FUNNEL_CONFIG.put('experiments', JSON.stringify(document));
}

export const stores = experimentStores(env);

/**
 * The shards' ids as the pool lists them. The pool asks Node over workerd's loopback for the
 * list; on a loaded machine that connection has dropped once mid-answer ("Network connection
 * lost", a full run's totals.test.ts), which is the pool's, not the shards': asked again once.
 */
async function shardIds(): Promise<DurableObjectId[]> {
  try {
    return await listDurableObjectIds(env.EXPERIMENT_SHARDS);
  } catch (error) {
    if (!String(error).includes('Network connection lost')) throw error;
    return listDurableObjectIds(env.EXPERIMENT_SHARDS);
  }
}

/**
 * The shards that may hold rows, in shard order: those asked for since the file's storage was
 * emptied (../written-shards.ts) that exist in this workerd. One never written holds no rows, and
 * opening it would create it and run its migrations.
 */
async function existingShards(): Promise<number[]> {
  const created = new Set((await shardIds()).map((id) => id.toString()));
  return Array.from({ length: EXPERIMENT_SHARD_COUNT }, (_, index) => index).filter((index) => {
    // The id alone: asking the namespace for the stub would write the shard down as asked.
    const id = stores.shards.idFromName(shardName(index));
    return mayHoldRows(id) && created.has(id.toString());
  });
}

/** Every shard's rows for `sql`, one shard after the other. */
export async function shardRows<Row>(sql: string, ...params: SqlStorageValue[]): Promise<Row[]> {
  const parts = await Promise.all(
    (await existingShards()).map((index) =>
      runInDurableObject(shardStub(stores, index), (_shard, state) =>
        state.storage.sql.exec(sql, ...params).toArray(),
      ),
    ),
  );
  return parts.flat() as Row[];
}

/** `experiment=variant` of each of the visitor's exposures, by experiment. */
export async function exposuresOf(visitorId: string | undefined): Promise<string[]> {
  const rows = await shardRows<{ experiment: string; variant: string }>(
    'SELECT experiment, variant FROM xp_exposures WHERE visitor_id = ?1 ORDER BY experiment',
    visitorId ?? '',
  );
  return rows.map(({ experiment, variant }) => `${experiment}=${variant}`);
}

/**
 * The split's exposures as pages write them now (every experiment's `xp_exposures`), in the shape
 * of its own table: the segments' route and source where it kept them.
 */
const SPLIT_EXPOSURES = `SELECT e.visitor_id, e.phase, e.variant, e.config_version, e.exposed_at,
    e.reached_lookup, e.signed_up, e.reached_checkout, e.purchased, s.route, s.source
  FROM xp_exposures AS e JOIN xp_segment_sets AS s ON s.id = e.segments
  WHERE e.experiment = 'split'`;

export async function exposureRows(): Promise<ExposureRow[]> {
  const rows = await shardRows<ExposureRow>(SPLIT_EXPOSURES);
  return rows.sort(
    (a, b) =>
      a.exposed_at - b.exposed_at ||
      a.phase - b.phase ||
      (a.visitor_id < b.visitor_id ? -1 : a.visitor_id > b.visitor_id ? 1 : 0),
  );
}

export async function exposureOf(visitorId: string | undefined): Promise<ExposureRow | null> {
  const id = visitorId ?? '';
  const rows = await runInDurableObject(shardStub(stores, shardOfVisitor(id)), (_shard, state) =>
    state.storage.sql.exec(`${SPLIT_EXPOSURES} AND e.visitor_id = ?1`, id).toArray(),
  );
  return (rows[0] as ExposureRow | undefined) ?? null;
}

/** The results' totals of a phase, every store's added, as the console reads them. */
export async function totalsOf(phase: number) {
  return experimentTotals(phase, (await readResults(stores, phase)).rows);
}

/** The split test's tables, in EVENTS_DB and in every shard. */
export const EXPERIMENT_TABLES = [
  'exposures',
  'experiment_arms',
  'experiment_purchases',
  'experiment_revenue',
  'experiment_days',
  'experiment_day_revenue',
  'route_days',
];

/** Every experiment's tables and the steps by route, in the shards only. */
const EVERY_EXPERIMENT_TABLES = [
  'route_step_days',
  'xp_segment_sets',
  'xp_exposures',
  'xp_pending_exposures',
  'xp_confirmed_visitors',
  'xp_arms',
  'xp_days',
  'xp_segments',
  'xp_purchases',
  'xp_money',
  'xp_revenue',
  'xp_day_revenue',
  'xp_net_revenue',
  'xp_day_net_revenue',
  'xp_revenue_events',
  'xp_vitals',
  'xp_day_vitals',
  'xp_declines',
  'xp_errors',
  'xp_lifecycle',
  'xp_recovered',
  'xp_strata',
  'xp_strata_revenue',
  'xp_answers',
  'xp_answer_segments',
  'fn_visitors',
  'fn_days',
  'fn_revenue',
  'fn_purchases',
  'fn_campaign_days',
];

/** No experiment rows anywhere: every shard and EVENTS_DB's tables emptied. */
export async function emptyExperiments(): Promise<void> {
  await shardRows(
    [...EXPERIMENT_TABLES, ...EVERY_EXPERIMENT_TABLES]
      .map((table) => `DELETE FROM ${table};`)
      .join(' '),
  );
  await env.EVENTS_DB.batch(
    EXPERIMENT_TABLES.map((table) => env.EVENTS_DB.prepare(`DELETE FROM ${table}`)),
  );
  forgetLegacyCheck();
}

/**
 * A visitor's exposures written straight to their shard as a page's are, and confirmed as their
 * page's script would (worker/collector/exposure-confirmation-route.ts): counted as exposed.
 */
export async function recordConfirmedExposures(
  experimentStores: typeof stores,
  exposures: readonly ExperimentExposure[],
  options: { returning: boolean } = { returning: false },
): Promise<void> {
  await recordVisitorExposures(experimentStores, exposures, options);
  await confirmVisitorExposures(
    experimentStores,
    exposures.map((exposure) => ({ visitorId: exposure.visitorId, until: exposure.at })),
  );
}

/**
 * Many visitors' exposures written straight to their shards, one request per shard (as a
 * visitor's page writes theirs, recordVisitorExposures, but for many at once), and confirmed:
 * counted as exposed, as recordConfirmedExposures counts one visitor's. For tests that need
 * visitors in an arm, not their pages.
 */
export async function recordConfirmedVisitors(
  experimentStores: typeof stores,
  exposures: readonly ExperimentExposure[],
): Promise<void> {
  await toEachShard(
    experimentStores,
    exposures,
    (exposure) => exposure.visitorId,
    (shard, group) => shard.recordExperimentExposures(group, []),
  );
  await confirmVisitorExposures(
    experimentStores,
    exposures.map((exposure) => ({ visitorId: exposure.visitorId, until: exposure.at })),
  );
}

/** The segments of an exposure recorded straight in the shards: one country, source, platform. */
export const SEGMENTS = {
  country: 'US',
  source: 'meta',
  platform: 'ios',
  in_app: 'none',
  language: 'en',
  route: 'default',
};

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
    await emptyExperiments();
  });
  afterEach(() => vi.restoreAllMocks());
}

/** A funnel whose events are kept as the queue would carry them, and its consumer. */
export function funnel(
  random = 0.2,
  bindings: Partial<Cloudflare.Env> = {},
  now: () => number = () => NOW,
) {
  const queue = recordingQueue();
  const fetchApp = freshApp(
    { random: () => random, now },
    { EVENTS_QUEUE: queue.queue, ...bindings },
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
    /**
     * The funnel's steps as the worker sees a visitor take them (worker/collector/seen-steps.ts):
     * a phone lookup it relays, a sign-up that signs them in, a checkout page served signed in.
     */
    steps: {
      async lookUp(browser: ReturnType<typeof aBrowser>, phone = '+14155550123') {
        const answer = await browser.get(`/api/phone-number-info/${encodeURIComponent(phone)}`);
        expect(answer.status).toBe(200);
      },
      async signUp(browser: ReturnType<typeof aBrowser>) {
        const email = `visitor-${crypto.randomUUID()}@example.test`;
        const answer = await browser.request('/api/signup', {
          method: 'POST',
          headers: SAME_ORIGIN,
          body: JSON.stringify({ registration_source: 'email', email }),
        });
        expect(answer.status).toBe(200);
      },
      async openCheckout(browser: ReturnType<typeof aBrowser>, path = '/checkout_v3_tr') {
        expect((await browser.get(path)).status).toBe(200);
      },
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

/**
 * EXPERIMENT_SHARDS as the worker gets it, with each call to a shard's object written down: the
 * requests a page costs the shards.
 */
export function countedShards() {
  const calls: string[] = [];
  const namespace = env.EXPERIMENT_SHARDS;
  const shards = new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      if (property !== 'get') return value.bind(target);
      return (id: DurableObjectId) => {
        const stub = target.get(id);
        return new Proxy(stub, {
          get(object, method) {
            const call = Reflect.get(object, method);
            if (typeof call !== 'function' || method === 'then') return call;
            return (...args: unknown[]) => {
              calls.push(String(method));
              return Reflect.apply(call, object, args);
            };
          },
        });
      };
    },
  });
  return { shards, calls };
}

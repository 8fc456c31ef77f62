import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { ConfigDocument } from '../../../shared/console-api/config';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { ResultsAnswer } from '../../../shared/console-api/results';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
} from '../../../worker/config/defaults';
import { RESULTS_CSV_COLUMNS } from '../../../worker/experiments/answer/results-csv';
import { recordExposures } from '../../../worker/experiments/exposure/exposure-store';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import { asDeliveries, consumer } from '../collector/consume';
import { NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp } from '../fetch-app';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';
import {
  aBrowser,
  CHROME,
  funnel,
  startEachTestAfresh,
  stores,
  TWO_WAY,
} from './experiment-fixtures';

/**
 * GET /console/api/results through the development worker, where the console is open: visitors
 * exposed by real page requests, steps from their own events, a purchase verified with the
 * embedded portal, and the answer (JSON and CSV) showing exactly those.
 */

startEachTestAfresh();
beforeEach(async () => {
  await env.EVENTS_DB.prepare('DELETE FROM verified_purchases').run();
  await env.CONFIG_DB.prepare('DELETE FROM config_versions').run();
});

function down(): never {
  throw new Error('the store is unavailable');
}

/** The console's calls, on an app of its own (the console assigns nobody). */
const consoleApp = freshApp({ now: () => NOW });

async function results(query = ''): Promise<ResultsAnswer> {
  const response = await consoleApp(`${CONSOLE_RESULTS_PATH}${query}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.json();
}

/** RFC 4180 without quoted fields: these results have none. */
function csvRows(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.split('\r\n').filter((line) => line !== '');
  const columns = header.split(',');
  return lines.map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? '']));
  });
}

/** A visitor of `variant` on the first screen, drawn by the real split code. */
async function exposedTo(variant: 'default' | 'lp17') {
  const visitors = funnel(variant === 'default' ? 0.2 : 0.8);
  const browser = await visitors.exposedVisitor();
  expect(browser.variant()).toBe(variant);
  return { browser, ...visitors };
}

/**
 * Exposures written as the worker writes them, `count` visitors of `variant` at `at`, in their
 * shards; their ids.
 */
async function exposeDirectly(variant: string, count: number, phase = 1, at = NOW) {
  const visitorIds = Array.from({ length: count }, () => crypto.randomUUID());
  await recordExposures(
    stores,
    visitorIds.map((visitorId) => ({
      visitorId,
      phase,
      variant,
      configVersion: 'v1+v1',
      at,
      route: 'default',
      source: 'direct',
    })),
  );
  return visitorIds;
}

/** The first `count` of the visitors reach the lookup. */
async function reachLookup(visitorIds: readonly string[], count: number) {
  await recordOutcomes(
    stores,
    visitorIds
      .slice(0, count)
      .map((visitorId) => ({ visitorId, event: 'onboarding_start', at: Date.now() })),
  );
}

describe('GET /console/api/results', () => {
  it('shows the visitors exposed through the funnel, their steps and the verified purchase exactly', async () => {
    // Two visitors on each variant; one of the control's reaches the lookup.
    const first = await exposedTo('default');
    await first.steps.lookUp(first.browser);
    await first.consume();
    await exposedTo('default');
    await exposedTo('lp17');
    // A crawler drawn lp17: counted apart.
    const crawler = aBrowser(freshApp({ random: () => 0.8, now: () => NOW }));
    await crawler.get('/', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });

    // The other lp17 visitor buys with the test card through the embedded portal; the queue
    // consumer counts the verified purchase.
    const purchases = recordingQueue();
    const buyer = checkoutVisitor({
      fetchApp: freshApp(
        { random: () => 0.8, now: () => NOW },
        { PORTAL_POLLING_DELAY_MS: '0', EVENTS_QUEUE: purchases.queue },
      ),
    });
    await buyer.call('/', undefined, { 'user-agent': CHROME });
    await buyer.signUp();
    expect((await buyer.pay(CARDS.succeeds)).result?.status).toBe('succeeded');
    await consumer().run(asDeliveries(purchases.sent));

    const answer = await results();
    expect(answer).toMatchObject({
      phase: 1,
      phases: [1],
      configVersion: 'v1+builtin',
      startedAt: new Date(NOW).toISOString(),
      control: 'default',
      primaryMetric: 'purchase',
      plannedPerArm: 10_000,
      mainCurrency: 'USD',
      revenueCap: 699,
      sampleRatio: { chiSquare: 0, pValue: 1, alarm: false },
    });
    const [control, lp17] = answer.variants;
    expect(control).toMatchObject({
      variant: 'default',
      control: true,
      share: 0.5,
      exposed: 2,
      bots: 0,
      otherRevenue: {},
    });
    expect(lp17).toMatchObject({
      variant: 'lp17',
      control: false,
      share: 0.5,
      exposed: 2,
      bots: 1,
    });
    const byMetric = (variant: typeof control) =>
      Object.fromEntries(variant?.metrics.map((m) => [m.metric, [m.count, m.mean]]) ?? []);
    expect(byMetric(control)).toEqual({
      lookup: [1, 0.5],
      signup: [0, 0],
      checkout: [0, 0],
      purchase: [0, 0],
      revenue: [0, 0],
    });
    expect(byMetric(lp17)).toEqual({
      lookup: [0, 0],
      signup: [0, 0],
      checkout: [0, 0],
      purchase: [1, 0.5],
      revenue: [1, 699 / 2],
    });
    expect(lp17?.metrics.map((m) => m.verdict)).toEqual(Array(5).fill('not_enough_data'));
    expect(lp17?.metrics.find((m) => m.primary)?.metric).toBe('purchase');
    // The control bought nothing, so there is no relative lift to draw yet, but there is its day.
    expect(answer.liftOverDays).toEqual([
      { day: '2026-11-22', variant: 'lp17', relativeLift: null, relativeInterval: null },
    ]);
  });

  it('gives the same numbers as CSV, one row per variant and metric, to download', async () => {
    await exposedTo('default');
    await exposedTo('lp17');
    await exposeDirectly('default', 120);
    await exposeDirectly('lp17', 118);
    const answer = await results();

    const response = await consoleApp(`${CONSOLE_RESULTS_PATH}?format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="results-phase-1.csv"',
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text.split('\r\n')[0]).toBe(RESULTS_CSV_COLUMNS.join(','));
    const rows = csvRows(text);
    expect(rows).toHaveLength(2 * 5);
    const cell = (value: number | null) => (value === null ? '' : String(value));
    // Money in major units beside its currency (cents of USD and EUR here); rates as they are.
    const currencyOf = (metric: string) =>
      metric === 'revenue' && answer.mainCurrency !== null ? answer.mainCurrency : null;
    expect(rows).toEqual(
      answer.variants.flatMap((variant) =>
        variant.metrics.map((metric) => {
          const currency = currencyOf(metric.metric);
          const major = (value: number | null | undefined) =>
            cell(value === null || value === undefined ? null : currency ? value / 100 : value);
          return {
            phase: '1',
            variant: variant.variant,
            control: String(variant.control),
            share: '0.5',
            exposed: String(variant.exposed),
            bots: '0',
            over_budget: '0',
            unconfirmed: '0',
            metric: metric.metric,
            currency: currency ?? '',
            primary: String(metric.metric === 'purchase'),
            count: String(metric.count),
            mean: major(metric.mean),
            absolute_lift: major(metric.absoluteLift),
            absolute_lower: major(metric.absoluteInterval?.lower),
            absolute_upper: major(metric.absoluteInterval?.upper),
            relative_lift: cell(metric.relativeLift),
            relative_lower: cell(metric.relativeInterval?.lower ?? null),
            relative_upper: cell(metric.relativeInterval?.upper ?? null),
            p_value: cell(metric.pValue),
            verdict: metric.verdict ?? '',
            // The split's results adjust nothing.
            adjusted_relative_lift: '',
            adjusted_relative_lower: '',
            adjusted_relative_upper: '',
            adjusted_absolute_lift: '',
            adjusted_absolute_lower: '',
            adjusted_absolute_upper: '',
            adjusted_p_value: '',
            adjusted_width_ratio: '',
            srm_p_value: String(answer.sampleRatio.pValue),
            srm_alarm: 'false',
          };
        }),
      ),
    );
    expect(rows.map((row) => [row.variant, row.exposed]).filter((_, i) => i % 5 === 0)).toEqual([
      ['default', '121'],
      ['lp17', '119'],
    ]);
  });

  it('withholds every verdict when the exposures do not fit the split, and says why', async () => {
    // 300 against 150 on a 50/50 split: χ² = 50. Each arm has enough visitors and buyers, so
    // only the alarm stands between these numbers and a verdict.
    await reachLookup(await exposeDirectly('default', 300), 30);
    await reachLookup(await exposeDirectly('lp17', 150), 100);
    const answer = await results();
    expect(answer.sampleRatio.alarm).toBe(true);
    expect(answer.sampleRatio.chiSquare).toBeCloseTo(50, 10);
    expect(answer.sampleRatio.pValue).toBeLessThan(0.001);
    const lp17 = answer.variants[1];
    expect(lp17?.metrics.map((m) => m.verdict)).toEqual(Array(5).fill('withheld_srm'));
    const lookup = lp17?.metrics.find((m) => m.metric === 'lookup');
    expect(lookup).toMatchObject({ count: 100, mean: 100 / 150 });
    expect(lookup?.absoluteInterval?.lower).toBeGreaterThan(0);

    const csv = csvRows(await (await consoleApp(`${CONSOLE_RESULTS_PATH}?format=csv`)).text());
    expect(new Set(csv.map((row) => row.srm_alarm))).toEqual(new Set(['true']));
    expect(csv.filter((row) => row.variant === 'lp17').map((row) => row.verdict)).toEqual(
      Array(5).fill('withheld_srm'),
    );
  });

  it('answers ?phase=N for an earlier phase with the shares its published version drew', async () => {
    const publish = async (base: number | null, weights: [number, number]) => {
      const document: ConfigDocument = {
        split: {
          ...TWO_WAY,
          variants: {
            default: { weight: weights[0] },
            lp17: { weight: weights[1], flow: 'lp17ch17pr5' },
          },
        },
        flows: {
          version: 'builtin',
          flows: DEFAULT_FLOWS.flows as ConfigDocument['flows']['flows'],
        },
        routing: DEFAULT_ROUTING,
        experiments: DEFAULT_EXPERIMENTS,
        content: EMPTY_CONTENT,
      };
      const response = await consoleApp(CONSOLE_API.publish, {
        method: 'POST',
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify({ base, document, note: 'results test' }),
      });
      expect(response.status).toBe(200);
    };
    await publish(null, [50, 50]);
    await exposedTo('default');
    await exposedTo('lp17');
    // New shares, a new phase: 20/80.
    await publish(1, [20, 80]);
    await exposedTo('lp17');

    const live = await results();
    expect(live).toMatchObject({ phase: 2, phases: [2, 1], configVersion: 'v2+v2' });
    expect(live.variants.map((v) => [v.variant, v.share, v.exposed])).toEqual([
      ['default', 0.2, 0],
      ['lp17', 0.8, 1],
    ]);

    const earlier = await results('?phase=1');
    expect(earlier).toMatchObject({ phase: 1, phases: [2, 1], configVersion: 'v2+v2' });
    expect(earlier.variants.map((v) => [v.variant, v.share, v.exposed])).toEqual([
      ['default', 0.5, 1],
      ['lp17', 0.5, 1],
    ]);
    expect((await results('?phase=2')).variants).toEqual(live.variants);
    const csv = await consoleApp(`${CONSOLE_RESULTS_PATH}?phase=1&format=csv`);
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="results-phase-1.csv"',
    );
    expect(new Set(csvRows(await csv.text()).map((row) => row.phase))).toEqual(new Set(['1']));
  });

  it('checks a phase no version names against equal shares of the variants seen', async () => {
    await exposeDirectly('lp17', 40, 7);
    await exposeDirectly('lp11', 60, 7);
    const answer = await results('?phase=7');
    expect(answer.phases).toEqual([7]);
    expect(answer.variants.map((v) => [v.variant, v.control, v.share, v.exposed])).toEqual([
      ['lp11', true, 0.5, 60],
      ['lp17', false, 0.5, 40],
    ]);
    expect(answer.sampleRatio.alarm).toBe(false);
  });

  it('shows a phase without visitors at zero, with no verdict, not as an error', async () => {
    const live = await results();
    expect(live).toMatchObject({ phase: 1, phases: [], startedAt: null, liftOverDays: [] });
    expect(live.variants.map((v) => [v.variant, v.exposed])).toEqual([
      ['default', 0],
      ['lp17', 0],
    ]);
    expect(live.variants[1]?.metrics.map((m) => m.verdict)).toEqual(
      Array(5).fill('not_enough_data'),
    );
    const unknown = await results('?phase=5');
    expect(unknown).toMatchObject({ phase: 5, variants: [], liftOverDays: [] });
  });

  it('draws the primary metric’s lift day by day, over everyone exposed up to each day', async () => {
    const day = 24 * 60 * 60 * 1000;
    // Lookups: 20 then 10 more in the control, 30 then 30 more in lp17.
    await reachLookup(await exposeDirectly('default', 100, 1, NOW - day), 20);
    await reachLookup(await exposeDirectly('lp17', 100, 1, NOW - day), 30);
    await reachLookup(await exposeDirectly('default', 100, 1, NOW), 10);
    await reachLookup(await exposeDirectly('lp17', 100, 1, NOW), 30);
    const live = TWO_WAY;
    await env.FUNNEL_CONFIG.put(
      'split',
      JSON.stringify({ ...live, experiment: { primaryMetric: 'lookup' } }),
    );

    const answer = await results();
    expect(answer.primaryMetric).toBe('lookup');
    expect(answer.startedAt).toBe(new Date(NOW - day).toISOString());
    expect(answer.liftOverDays.map((point) => [point.day, point.variant])).toEqual([
      ['2026-11-21', 'lp17'],
      ['2026-11-22', 'lp17'],
    ]);
    const [first, last] = answer.liftOverDays;
    expect(first?.relativeLift).toBeCloseTo(30 / 20 - 1, 12);
    expect(last?.relativeLift).toBeCloseTo(60 / 30 - 1, 12);
    const lookup = answer.variants[1]?.metrics.find((m) => m.primary);
    expect(lookup?.metric).toBe('lookup');
    expect(last?.relativeInterval).toEqual(lookup?.relativeInterval);
  });

  it.each([
    ['EVENTS_DB', { EVENTS_DB: { prepare: down, batch: down } as unknown as D1Database }],
    [
      'one shard',
      {
        EXPERIMENT_SHARDS: {
          idFromName: (name: string) => env.EXPERIMENT_SHARDS.idFromName(name),
          get: (id: DurableObjectId) =>
            id.name === 'experiments:7' ? { results: down } : env.EXPERIMENT_SHARDS.get(id),
        } as unknown as Cloudflare.Env['EXPERIMENT_SHARDS'],
      },
    ],
  ])(
    'answers 503 when %s fails, never a partial sum, and logs that the results failed',
    async (_store, bindings) => {
      await exposeDirectly('default', 10);
      const failing = freshApp({ now: () => NOW }, bindings);
      const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
      const response = await failing(CONSOLE_RESULTS_PATH);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ ok: false, error: 'config_store_failed' });
      expect(response.headers.get('cache-control')).toBe('no-store');
      const lines = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toContainEqual(
        expect.objectContaining({ error: 'results_failed', path: CONSOLE_RESULTS_PATH }),
      );
    },
  );

  it('refuses a query it does not understand', async () => {
    for (const query of [
      '?phase=abc',
      '?phase=-1',
      '?phase=0',
      '?phase=1.5',
      '?phase=',
      '?format=xml',
    ]) {
      const response = await consoleApp(`${CONSOLE_RESULTS_PATH}${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
    }
  });
});

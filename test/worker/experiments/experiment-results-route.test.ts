import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { SEGMENT_CSV_COLUMNS } from '../../../worker/experiments/answer/results-csv';
import { SEGMENT_CAUTION } from '../../../worker/experiments/results/segment-results';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import { applyToExperiments } from '../../../worker/lifecycle/apply';
import { freshApp, putConfig } from '../fetch-app';
import { aBrowser, emptyExperiments, stores } from './experiment-fixtures';

/**
 * GET /console/api/experiments/{id}/results through the development worker, where the console is
 * open: a paywall price test whose visitors are exposed by real page requests, counted only once
 * they reach the checkout, their purchase and renewal after it, and the answer as JSON and CSV.
 */

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const MINUTE = 60_000;

const PRICE_TEST: ExperimentDocument = {
  name: 'Checkout: 3-day intro',
  status: 'running',
  layer: 'paywall',
  audience: {},
  coverage: 1,
  seed: 'pw-price',
  phase: 1,
  control: 'current',
  variants: {
    current: { weight: 0, change: {} },
    cheap: { weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
  },
  metrics: { plannedPerArm: 500 },
};

const pages = freshApp({ now: () => NOW });
const consoleApp = freshApp({ now: () => NOW });
const path = (id: string, query = '') => `${CONSOLE_EXPERIMENTS_PATH}/${id}/results${query}`;

async function results(id: string, query = ''): Promise<ExperimentResultsAnswer> {
  const response = await consoleApp(path(id, query));
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.json();
}

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
  const experiments: ExperimentsDocument = {
    version: 'route-test',
    experiments: { 'pw-price': PRICE_TEST },
  };
  await putConfig('experiments', experiments);
});
afterEach(async () => {
  await putConfig('experiments', { version: 'none', experiments: {} });
  vi.restoreAllMocks();
});

/** A visitor who walks the funnel's first screens up to `last`, page by page. */
async function walkTo(last: '/signup' | '/checkout_v3_tr') {
  const browser = aBrowser(pages);
  for (const page of ['/', '/searching', '/signup', '/checkout_v3_tr']) {
    expect((await browser.get(page)).status).toBe(200);
    if (page === last) break;
  }
  return browser.visitorId()!;
}

describe("a paywall price test's results", () => {
  it('count only the visitors who reached the checkout, from the checkout on', async () => {
    const stopped = await walkTo('/signup');
    const paid = await walkTo('/checkout_v3_tr');
    await recordOutcomes(stores, [
      // Before the checkout: a step the experiment cannot have caused.
      { visitorId: paid, event: 'lead', at: NOW - MINUTE },
      { visitorId: paid, event: 'checkout_screen_load', at: NOW + 1_000 },
      { visitorId: stopped, event: 'lead', at: NOW },
    ]);
    await recordPurchases(stores, [
      {
        subscriptionId: 'sub-1',
        visitorId: paid,
        amountMinor: 299,
        currency: 'USD',
        at: NOW + MINUTE,
      },
    ]);
    await applyToExperiments(env, [
      {
        eventId: 'evt-renewal-1',
        subscriptionId: 'sub-1',
        visitorId: paid,
        kind: 'renewal',
        amountMinor: 3999,
        currency: 'USD',
        at: NOW + 3 * 24 * 60 * MINUTE,
      },
    ]);

    const answer = await results('pw-price');
    expect(answer).toMatchObject({
      experiment: 'pw-price',
      name: 'Checkout: 3-day intro',
      layer: 'paywall',
      control: 'current',
      priceTest: true,
      primaryMetric: 'mature_revenue',
      matureAfterDays: 10,
      awaitingMatureSample: true,
      triggers: [{ route: 'default', screen: 'checkout_v3_tr' }],
      metricsShown: ['checkout', 'purchase', 'revenue', 'upsell', 'net_revenue', 'mature_revenue'],
      mainCurrency: 'USD',
    });
    expect(answer.reach.exposed).toBe(1);
    const cheap = answer.variants.find((variant) => variant.variant === 'cheap')!;
    expect(cheap.exposed).toBe(1);
    const mean = (metric: string) => cheap.metrics.find((m) => m.metric === metric)?.mean;
    expect(mean('checkout')).toBe(1);
    expect(mean('purchase')).toBe(1);
    expect(mean('revenue')).toBe(299);
    expect(mean('net_revenue')).toBe(299 + 3999);
    // Exposed today: none of it is mature yet.
    expect(cheap.matureExposed).toBe(0);
    expect(mean('mature_revenue')).toBe(0);
    expect(cheap.metrics.some((m) => m.metric === 'signup')).toBe(false);
    // The adjusted comparison rides along: one stratum of one visitor adjusts nothing yet, and
    // net revenue is never adjusted.
    const metric = (key: string) => cheap.metrics.find((m) => m.metric === key)!;
    expect(metric('purchase').adjusted).toBeNull();
    expect(metric('revenue').adjusted).toBeNull();
    expect(metric('net_revenue')).not.toHaveProperty('adjusted');
  });

  it('count failed renewals, recoveries and recovered revenue per arm, and a cancellation once', async () => {
    const paid = await walkTo('/checkout_v3_tr');
    const lapsed = await walkTo('/checkout_v3_tr');
    await recordPurchases(stores, [
      {
        subscriptionId: 'sub-r',
        visitorId: paid,
        amountMinor: 299,
        currency: 'USD',
        at: NOW + MINUTE,
      },
      {
        subscriptionId: 'sub-c',
        visitorId: lapsed,
        amountMinor: 299,
        currency: 'USD',
        at: NOW + MINUTE,
      },
    ]);
    const day = 24 * 60 * MINUTE;
    const event = (eventId: string, subscriptionId: string, visitorId: string) => ({
      eventId,
      subscriptionId,
      visitorId,
      currency: 'USD',
      at: NOW + 30 * day,
    });
    const events = [
      { ...event('evt-f1', 'sub-r', paid), kind: 'renewal_failed' as const, amountMinor: 0 },
      { ...event('evt-f2', 'sub-r', paid), kind: 'renewal_failed' as const, amountMinor: 0 },
      {
        ...event('evt-r', 'sub-r', paid),
        kind: 'renewal' as const,
        amountMinor: 3999,
        recovered: true,
      },
      { ...event('evt-f3', 'sub-c', lapsed), kind: 'renewal_failed' as const, amountMinor: 0 },
      {
        ...event('evt-c1', 'sub-c', lapsed),
        kind: 'cancellation' as const,
        amountMinor: 0,
        currency: null,
      },
      // Cancelled twice (a second subscription event of the same buyer): one visitor.
      {
        ...event('evt-c2', 'sub-c', lapsed),
        kind: 'cancellation' as const,
        amountMinor: 0,
        currency: null,
      },
    ];
    await applyToExperiments(env, events);
    // Passed again (a retry after a failure): each event id counts once.
    await applyToExperiments(env, events);

    const answer = await results('pw-price');
    const cheap = answer.variants.find((variant) => variant.variant === 'cheap')!;
    expect(cheap.recovery).toEqual({
      renewalFailed: 2,
      recovered: 1,
      revenue: [{ currency: 'USD', amountMinor: 3999, renewals: 1 }],
    });
    expect(cheap.guardrails.cancellations).toMatchObject({ count: 1, rate: 0.5 });
    const net = cheap.metrics.find((metric) => metric.metric === 'net_revenue')?.mean;
    expect(net).toBe((299 + 299 + 3999) / 2);

    const csv = await (await consoleApp(path('pw-price', '?format=csv'))).text();
    const recovered = csv.split('\r\n').find((row) => row.includes(',recovered_revenue,'));
    expect(recovered?.split(',').slice(1, 13)).toEqual([
      'cheap',
      'false',
      '1',
      '2',
      '0',
      '0',
      '0',
      'recovered_revenue',
      'USD',
      'false',
      '1',
      '19.995',
    ]);
  });

  it('give a segment view that hides levels under 100 exposed per arm, as JSON and CSV', async () => {
    await walkTo('/checkout_v3_tr');
    const answer = await results('pw-price', '?segment=country');
    expect(answer.segment).toMatchObject({
      dimension: 'country',
      caution: SEGMENT_CAUTION,
      levels: [],
      hiddenLevels: 1,
    });
    const csv = await consoleApp(path('pw-price', '?segment=country&format=csv'));
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe(
      'attachment; filename="results-pw-price-phase-1-country.csv"',
    );
    expect(await csv.text()).toBe(`${SEGMENT_CSV_COLUMNS.join(',')}\r\n`);

    const whole = await consoleApp(path('pw-price', '?format=csv'));
    const rows = (await whole.text()).split('\r\n').filter(Boolean);
    // A header, then one row per variant and metric shown, its guardrails (declined, refunded,
    // cancelled, renewed, server and client errors: nobody here had a decline of any class), its
    // failed renewals and recoveries (no recovered revenue yet) and its page speed (LCP, INP, CLS).
    expect(rows).toHaveLength(1 + 2 * (6 + 6 + 2 + 3));
    expect(rows.slice(-3).map((row) => row.split(',')[8])).toEqual([
      'p75_lcp',
      'p75_inp',
      'p75_cls',
    ]);
  });

  it('read the split as the experiment it became', async () => {
    const answer = await results('split');
    expect(answer).toMatchObject({ experiment: 'split', layer: 'flow', phase: expect.any(Number) });
  });
});

describe('what the route refuses', () => {
  it.each([
    ['an experiment the config does not name', path('nope'), 404, 'unknown_experiment'],
    ['an id no experiment can have', path('Not-An-Id'), 404, 'unknown_experiment'],
    ['a phase that is no number', path('pw-price', '?phase=1e3'), 400, 'bad_request'],
    ['a segment that is not captured', path('pw-price', '?segment=email'), 400, 'bad_request'],
    ['a format it does not write', path('pw-price', '?format=xlsx'), 400, 'bad_request'],
    ['a parameter it does not know', path('pw-price', '?phase=1&debug=1'), 400, 'bad_request'],
  ])('%s', async (_case, url, status, error) => {
    const response = await consoleApp(url);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ ok: false, error });
  });

  it('a store that fails is a 503, never a partial sum', async () => {
    const broken = freshApp(
      { now: () => NOW },
      {
        EXPERIMENT_SHARDS: {
          idFromName: () => {
            throw new Error('shards unavailable');
          },
        } as unknown as typeof env.EXPERIMENT_SHARDS,
      },
    );
    const response = await broken(path('pw-price'));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ ok: false, error: 'config_store_failed' });
  });
});

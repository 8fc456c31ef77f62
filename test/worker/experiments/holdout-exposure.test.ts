import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentsDocument } from '../../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { holdoutGroup } from '../../../worker/experiments/holdout/holdout';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { readExperimentRows } from '../../../worker/experiments/store/experiment-stores';
import { applyToExperiments } from '../../../worker/lifecycle/apply';
import { rolledOutLanding } from '../../fixtures/rolled-out';
import { keptRoute } from '../../fixtures/signed-cookies';
import { twoArmTest } from '../../fixtures/two-arm-test';
import { freshApp, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';
import {
  aBrowser,
  countedShards,
  shardRows,
  startEachTestAfresh,
  stores,
} from './experiment-fixtures';

/**
 * The holdout counted (worker/experiments/holdout/holdout.ts): a held-out or measured visitor
 * is exposed on the first funnel page the worker serves them, once, in the request their page
 * makes to their shard anyway, and never in the experiments the holdout covers; their purchases
 * and refunds count in the holdout's arms as an experiment's do.
 */

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 60 * 60 * 1000;
const SEED = 'h-exposure';
const UNIT = `holdout:${SEED}`;

const EXPERIMENTS: ExperimentsDocument = {
  version: 'e-holdout',
  holdout: {
    seed: SEED,
    percent: 10,
    status: 'running',
    startedAt: new Date(NOW - 48 * HOUR).toISOString(),
  },
  experiments: {
    'lp-new': {
      ...twoArmTest('landing', 'lp-new', { screens: { landing: 'one_pager_ai' } }),
      startedAt: new Date(NOW - 24 * HOUR).toISOString(),
    },
  },
};

/** The first of the ids …-000000000001, …-000000000002… that the holdout puts in `group`. */
function idIn(group: 'held_out' | 'measured' | null): string {
  for (let n = 1; ; n++) {
    const id = `62000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    if (holdoutGroup(EXPERIMENTS.holdout, id, NOW) === group) return id;
  }
}

function app(bindings: Partial<Cloudflare.Env> = {}) {
  return freshApp({ now: () => NOW }, bindings);
}

/** A returning visitor's browser with `id` as its userUuid. */
const browserOf = (fetchApp: ReturnType<typeof app>, id: string) =>
  aBrowser(fetchApp, new Map([['userUuid', id]]));

/** `experiment=variant` of each of the visitor's exposures; the split's, drawn, as `split`. */
const exposuresOf = async (visitorId: string) =>
  (
    await shardRows<{ experiment: string; variant: string }>(
      'SELECT experiment, variant FROM xp_exposures WHERE visitor_id = ?1 ORDER BY experiment',
      visitorId,
    )
  ).map(({ experiment, variant }) =>
    experiment === 'split' ? 'split' : `${experiment}=${variant}`,
  );

startEachTestAfresh();
beforeEach(() => putConfig('experiments', EXPERIMENTS));

describe('a visitor the holdout draws', () => {
  it('is exposed to it on their first page, once, in one request, never to a covered test', async () => {
    const { shards, calls } = countedShards();
    const heldOut = idIn('held_out');
    const browser = browserOf(app({ EXPERIMENT_SHARDS: shards }), heldOut);
    expect((await browser.get('/')).status).toBe(200);
    // The page's exposures, then its script's confirmation of them: one request each.
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);
    expect(browser.cookies.get('gf_x')).toContain(encodeURIComponent(`holdout~held_out/${SEED}.`));
    await browser.get('/');
    await browser.get('/searching');
    // The page's exposures, then its script's confirmation of them: one request each.
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);
    // The split test records no start: the holdout leaves it alone.
    expect(await exposuresOf(heldOut)).toEqual([`${UNIT}=held_out`, 'split']);
  });

  it('in the measured sample is its other arm; anyone else is in neither', async () => {
    const fetchApp = app();
    const [measured, neither] = [idIn('measured'), idIn(null)];
    await browserOf(fetchApp, measured).get('/');
    await browserOf(fetchApp, neither).get('/');
    expect(await exposuresOf(measured)).toEqual([`${UNIT}=measured`, 'split']);
    expect((await exposuresOf(neither)).map((what) => what.split('=')[0])).toEqual([
      'lp-new',
      'split',
    ]);
  });

  it('is not exposed by a prefetch or skip_split', async () => {
    const heldOut = idIn('held_out');
    const browser = browserOf(app(), heldOut);
    await browser.get('/', { 'sec-purpose': 'prefetch' });
    await browser.get('/?skip_split=true');
    expect(await exposuresOf(heldOut)).toEqual([]);
  });

  it('has their purchases, renewals and refunds counted in the holdout arm', async () => {
    const heldOut = idIn('held_out');
    await browserOf(app(), heldOut).get('/');
    const purchase = {
      subscriptionId: 'sub_h',
      visitorId: heldOut,
      amountMinor: 2999,
      currency: 'USD',
      at: NOW + HOUR,
    };
    await recordPurchases(stores, [purchase]);
    const renewal = {
      subscriptionId: 'sub_h',
      visitorId: heldOut,
      kind: 'renewal' as const,
      amountMinor: 2999,
      currency: 'USD',
    };
    // Two renewals, the second paying a failed one: retention counts the buyer once.
    await applyToExperiments(env, [
      { ...renewal, eventId: 'evt_h_renewal', at: NOW + HOUR },
      { ...renewal, eventId: 'evt_h_recovered', at: NOW + HOUR, recovered: true },
    ]);
    await applyToExperiments(env, [
      {
        eventId: 'evt_h_refund',
        subscriptionId: 'sub_h',
        visitorId: heldOut,
        kind: 'refund',
        amountMinor: -2999,
        currency: 'USD',
        at: NOW + 2 * HOUR,
      },
    ]);
    const { rows } = await readExperimentRows(stores, UNIT, 1);
    expect(rows.arms).toEqual([
      expect.objectContaining({ variant: 'held_out', exposed: 1, purchased: 1, refunded: 1 }),
    ]);
    expect(rows.revenue).toEqual([
      { variant: 'held_out', currency: 'USD', revenue_minor: 2999, visitors: 1 },
    ]);
    expect(rows.lifecycle).toEqual([
      { variant: 'held_out', outcome: 'recovered', visitors: 1 },
      { variant: 'held_out', outcome: 'renewed', visitors: 1 },
    ]);
  });
});

describe("the holdout's results (GET /console/api/experiments/holdout/results)", () => {
  it('compare the held out with the measured sample on mature net revenue per visitor', async () => {
    const fetchApp = app();
    const [heldOut, measured] = [idIn('held_out'), idIn('measured')];
    await browserOf(fetchApp, heldOut).get('/');
    await browserOf(fetchApp, measured).get('/');
    await recordPurchases(stores, [
      { subscriptionId: 'sub_m', visitorId: measured, amountMinor: 2999, currency: 'USD', at: NOW },
    ]);
    await applyToExperiments(env, [
      {
        eventId: 'evt_m_renewal',
        subscriptionId: 'sub_m',
        visitorId: measured,
        kind: 'renewal',
        amountMinor: 2999,
        currency: 'USD',
        at: NOW + HOUR,
      },
    ]);
    const response = await fetchApp(`${CONSOLE_EXPERIMENTS_PATH}/holdout/results`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as ExperimentResultsAnswer;
    expect(answer).toMatchObject({
      experiment: 'holdout',
      control: 'held_out',
      primaryMetric: 'mature_revenue',
      plannedPerArm: 1_300_000,
      status: 'running',
    });
    const exposed = answer.variants.map((v) => [v.variant, v.exposed]);
    expect(exposed).toEqual([
      ['held_out', 1],
      ['measured', 1],
    ]);
    const purchase = (v: string) =>
      answer.variants
        .find((variant) => variant.variant === v)
        ?.metrics.find((metric) => metric.metric === 'purchase')?.count;
    expect([purchase('held_out'), purchase('measured')]).toEqual([0, 1]);
    // Retention: the measured buyer renewed, once, judged against the held out's none.
    const [heldRenewed, measuredRenewed] = answer.variants.map((v) => v.guardrails.renewed);
    expect(heldRenewed).toMatchObject({ count: 0, verdict: null });
    expect(measuredRenewed).toMatchObject({ count: 1, rate: 1, verdict: 'not_enough_data' });
    const bySource = await fetchApp(`${CONSOLE_EXPERIMENTS_PATH}/holdout/results?segment=source`);
    expect(((await bySource.json()) as ExperimentResultsAnswer).segment?.dimension).toBe('source');
  });

  it('are 404 without a holdout', async () => {
    await putConfig('experiments', { ...EXPERIMENTS, holdout: undefined });
    const response = await app()(`${CONSOLE_EXPERIMENTS_PATH}/holdout/results`);
    expect(response.status).toBe(404);
  });
});

describe('what a page serves', () => {
  it('a held-out visitor the control of a winner rolled out since the start; a measured one the winner', async () => {
    await putConfig('split', {
      version: 'one',
      defaultVariant: 'default',
      variants: { default: { weight: 1 } },
    });
    await putConfig('experiments', {
      ...EXPERIMENTS,
      experiments: {
        'lp-ai': { ...rolledOutLanding(NOW), startedAt: new Date(NOW - 24 * HOUR).toISOString() },
      },
    });
    const fetchApp = app();
    const landingOf = async (id: string) =>
      pageStateOf((await browserOf(fetchApp, id).get('/')).body).screen;
    expect(await landingOf(idIn('held_out'))).toBe('one_pager');
    expect(await landingOf(idIn('measured'))).toBe('one_pager_ai');
    expect(await landingOf(idIn(null))).toBe('one_pager_ai');
  });

  it('a held-out visitor never the route added since the start; a measured one gets it', async () => {
    await putConfig('routing', {
      version: 'r-spring',
      audiences: {
        spring: { groups: [[{ attribute: 'entry', operator: 'in', values: ['spring'] }]] },
      },
      routes: [
        {
          id: 'spring',
          audience: 'spring',
          flow: 'lp11ch8',
          since: EXPERIMENTS.experiments['lp-new']?.startedAt,
        },
        { id: 'default', flow: 'default' },
      ],
    });
    const fetchApp = app();
    const routeOf = async (id: string) => {
      const browser = browserOf(fetchApp, id);
      expect((await browser.get('/?r=spring')).status).toBe(200);
      return keptRoute(browser.cookies.get('gf_route'));
    };
    expect(await routeOf(idIn('held_out'))).toBe('default');
    expect(await routeOf(idIn('measured'))).toBe('spring');
    expect(await routeOf(idIn(null))).toBe('spring');
  });
});

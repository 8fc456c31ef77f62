import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_FUNNEL_PATH, type FunnelReportAnswer } from '../../../shared/console-api/funnel';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { funnelReport, readFunnelParts } from '../../../worker/experiments/answer/funnel-report';
import { shardOfVisitor } from '../../../worker/experiments/assignment/assign';
import {
  confirmVisitorExposures,
  recordVisitorExposures,
} from '../../../worker/experiments/exposure/exposure-store';
import type { ExperimentExposure } from '../../../worker/experiments/store/every-experiment-statements';
import { recordPurchases } from '../../../worker/experiments/store/experiment-purchase';
import { readExperimentRows, shardStub } from '../../../worker/experiments/store/experiment-stores';
import {
  FUNNEL_CAMPAIGNS_PER_DAY,
  FUNNEL_VISITORS_KEPT_MS,
  OTHER_CAMPAIGNS,
} from '../../../worker/experiments/store/funnel-statements';
import type { Outcome } from '../../../worker/experiments/store/outcomes';
import { recordOutcomes } from '../../../worker/experiments/store/record-outcomes';
import type { FirstVisit } from '../../../worker/experiments/store/split-statements';
import { freshApp } from '../fetch-app';
import { emptyExperiments, shardRows, stores } from './experiment-fixtures';

/**
 * The funnel by route, source and campaign (worker/experiments/store/funnel-statements.ts): what
 * the shards count from the first visits, steps and purchases they already receive, and the
 * console's report of it with the imported ad costs (docs/marketers.md, "The funnel by campaign").
 */

const DAY = '2026-11-20';
const NEXT_DAY = '2026-11-21';
const T0 = Date.parse(`${DAY}T09:00:00Z`);
const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

function visit(
  route: string,
  source: string,
  campaign: string,
  at = T0,
  visitorId: string = crypto.randomUUID(),
): FirstVisit {
  return { visitorId, route, at, source, campaign };
}

/** The first visit alone, as the exposure middleware writes one on a route with no experiment. */
async function firstVisits(visits: readonly FirstVisit[]): Promise<void> {
  for (const one of visits)
    await recordVisitorExposures(stores, [], { returning: false, firstVisit: one });
}

const step = (visitorId: string, event: Outcome['event'], at: number): Outcome => ({
  visitorId,
  event,
  at,
});

describe('the shards count a funnel by campaign', () => {
  it('counts each visitor once on their first day, each step and purchase once, in order', async () => {
    const [a, b, c, d, e] = [
      visit('tiktok', 'tiktok', 'bf24'),
      visit('tiktok', 'tiktok', 'bf24', T0 + MINUTE),
      visit('tiktok', 'tiktok', 'bf24', T0 + 2 * MINUTE),
      visit('default', 'direct', ''),
      visit('tiktok', 'tiktok', 'bf24', T0 + DAY_MS),
    ] as const;
    await firstVisits([a, b, c, d, e]);
    // The same visitor's first visit sent again (a page answered twice) is not a second visitor.
    await firstVisits([{ ...a, at: T0 + 5 * MINUTE }]);

    await recordOutcomes(stores, [
      step(a.visitorId, 'onboarding_start', T0 + MINUTE),
      step(b.visitorId, 'onboarding_start', T0 + 2 * MINUTE),
      step(a.visitorId, 'lead', T0 + 3 * MINUTE),
      step(a.visitorId, 'checkout_screen_load', T0 + 4 * MINUTE),
      // Before c's first visit: not theirs to count.
      step(c.visitorId, 'onboarding_start', T0),
      step(e.visitorId, 'onboarding_start', T0 + DAY_MS + MINUTE),
    ]);
    // A batch delivered again counts nothing more.
    await recordOutcomes(stores, [step(a.visitorId, 'lead', T0 + 3 * MINUTE)]);

    const bought = {
      subscriptionId: `sub_${a.visitorId}`,
      visitorId: a.visitorId,
      amountMinor: 699,
      currency: 'USD',
      at: T0 + 5 * MINUTE,
    };
    await recordPurchases(stores, [bought]);
    await recordPurchases(stores, [bought]);
    await recordPurchases(stores, [
      {
        subscriptionId: `up_${a.visitorId}`,
        visitorId: a.visitorId,
        amountMinor: 999,
        currency: 'EUR',
        upsell: true,
        at: T0 + 6 * MINUTE,
      },
    ]);

    const report = funnelReport(
      await readFunnelParts(stores, DAY, NEXT_DAY),
      [{ day: DAY, source: 'tiktok', campaign: 'bf24', currency: 'EUR', amountMinor: 50_00 }],
      { from: DAY, to: NEXT_DAY, route: null },
    );
    const none = { revenueCents: 0, revenueUnconverted: [] };
    expect(report.days).toEqual([
      {
        day: DAY,
        route: 'default',
        source: 'direct',
        campaign: '',
        visitors: 1,
        lookups: 0,
        signups: 0,
        checkouts: 0,
        purchases: 0,
        upsells: 0,
        ...none,
      },
      // 699 US cents and 9.99 € at 1.16 (1,158.84 cents): 1,857.84, in whole cents.
      {
        day: DAY,
        route: 'tiktok',
        source: 'tiktok',
        campaign: 'bf24',
        visitors: 3,
        lookups: 2,
        signups: 1,
        checkouts: 1,
        purchases: 1,
        upsells: 1,
        revenueCents: 1858,
        revenueUnconverted: [],
      },
      {
        day: NEXT_DAY,
        route: 'tiktok',
        source: 'tiktok',
        campaign: 'bf24',
        visitors: 1,
        lookups: 1,
        signups: 0,
        checkouts: 0,
        purchases: 0,
        upsells: 0,
        ...none,
      },
    ]);
    expect(report.campaigns).toEqual([
      {
        source: 'direct',
        campaign: '',
        visitors: 1,
        lookups: 0,
        signups: 0,
        checkouts: 0,
        purchases: 0,
        upsells: 0,
        ...none,
        costCents: null,
        costPerSignupCents: null,
        costPerPurchaseCents: null,
        roas: null,
      },
      // 50 € is 5,800 cents; the revenue over it, 0.32.
      {
        source: 'tiktok',
        campaign: 'bf24',
        visitors: 4,
        lookups: 3,
        signups: 1,
        checkouts: 1,
        purchases: 1,
        upsells: 1,
        revenueCents: 1858,
        revenueUnconverted: [],
        costCents: 5800,
        costPerSignupCents: 5800,
        costPerPurchaseCents: 5800,
        roas: 0.32,
      },
    ]);
    expect(report.totals).toMatchObject({
      visitors: 5,
      signups: 1,
      revenueCents: 1858,
      costCents: 5800,
    });
  });

  it('counts a day’s campaigns past its limit in one shard as one, so made-up ones add no rows', async () => {
    // Visitors of one shard: the limit is each shard's.
    const ids: string[] = [];
    while (ids.length < FUNNEL_CAMPAIGNS_PER_DAY + 3) {
      const id = crypto.randomUUID();
      if (shardOfVisitor(id) === 0) ids.push(id);
    }
    const visits = ids.map((id, n) =>
      visit(
        'default',
        'meta',
        n < FUNNEL_CAMPAIGNS_PER_DAY + 2 ? `made-up-${n}` : 'made-up-0',
        T0 + n,
        id,
      ),
    );
    await shardStub(stores, 0).recordExposures([], visits);

    const rows = await shardRows<{ campaign: string; visitors: number }>(
      'SELECT campaign, visitors FROM fn_days WHERE day = ?1',
      DAY,
    );
    expect(rows).toHaveLength(FUNNEL_CAMPAIGNS_PER_DAY + 1);
    // The two past the limit are counted together; a campaign the day has still counts as itself.
    expect(rows.find((row) => row.campaign === OTHER_CAMPAIGNS)?.visitors).toBe(2);
    expect(rows.find((row) => row.campaign === 'made-up-0')?.visitors).toBe(2);
  });

  it('forgets a visitor after the kept window, keeping the day they were counted on', async () => {
    const old = visit('default', 'google', 'search', Date.now() - FUNNEL_VISITORS_KEPT_MS - DAY_MS);
    const recent = visit('default', 'google', 'search', Date.now() - DAY_MS);
    await firstVisits([old, recent]);
    const shard = shardStub(stores, shardOfVisitor(old.visitorId));
    expect(await runDurableObjectAlarm(shard)).toBe(true);
    const kept = await shardRows<{ visitor_id: string }>('SELECT visitor_id FROM fn_visitors');
    expect(kept.map((row) => row.visitor_id)).not.toContain(old.visitorId);
    expect(kept.map((row) => row.visitor_id)).toContain(recent.visitorId);
    const days = await shardRows<{ visitors: number }>('SELECT visitors FROM fn_days');
    expect(days.reduce((sum, row) => sum + row.visitors, 0)).toBe(2);
  });
});

describe('GET /console/api/funnel', () => {
  const app = () => freshApp({ now: () => T0 + DAY_MS });

  it('agrees with the split’s results on the route it draws, for the same days', async () => {
    // The split exposes each visitor on their first page, as the middleware writes both.
    const visits = [0, 1, 2, 3, 4, 5].map((n) =>
      visit('default', 'meta', 'spring', T0 + n * MINUTE),
    );
    for (const [n, one] of visits.entries()) {
      const exposure: ExperimentExposure = {
        visitorId: one.visitorId,
        experiment: SPLIT_EXPERIMENT_ID,
        phase: 1,
        variant: n % 2 ? 'b' : 'control',
        configVersion: 'v1+v1',
        at: one.at,
        segments: {
          country: 'US',
          source: 'meta',
          platform: 'ios',
          in_app: 'none',
          language: 'en',
          route: 'default',
        },
      };
      await recordVisitorExposures(stores, [exposure], { returning: false, firstVisit: one });
      // Its page's script confirms it, as a browser's does: counted as exposed.
      await confirmVisitorExposures(stores, [{ visitorId: one.visitorId, until: one.at }]);
    }
    await recordOutcomes(
      stores,
      visits.flatMap((one, n) => [
        ...(n < 4 ? [step(one.visitorId, 'onboarding_start', one.at + MINUTE)] : []),
        ...(n < 2 ? [step(one.visitorId, 'lead', one.at + 2 * MINUTE)] : []),
      ]),
    );
    const buyer = visits[0]!;
    await recordPurchases(stores, [
      {
        subscriptionId: 'sub_1',
        visitorId: buyer.visitorId,
        amountMinor: 699,
        currency: 'USD',
        at: buyer.at + 3 * MINUTE,
      },
    ]);

    const response = await app()(`${CONSOLE_FUNNEL_PATH}?from=${DAY}&to=${DAY}&route=default`);
    expect(response.status).toBe(200);
    const report: FunnelReportAnswer = await response.json();
    const { rows } = await readExperimentRows(stores, SPLIT_EXPERIMENT_ID, 1, 'none');
    const sum = (pick: (arm: (typeof rows.arms)[number]) => number) =>
      rows.arms.reduce((total, arm) => total + pick(arm), 0);
    expect(report.totals).toMatchObject({
      visitors: sum((arm) => arm.exposed),
      lookups: sum((arm) => arm.reached_lookup),
      signups: sum((arm) => arm.signed_up),
      purchases: sum((arm) => arm.purchased),
    });
    expect(report.totals).toMatchObject({ visitors: 6, lookups: 4, signups: 2, purchases: 1 });
  });

  it('answers the campaigns as CSV, and a bad query 400', async () => {
    await firstVisits([visit('default', 'meta', '=HYPERLINK("x")')]);
    const csv = await app()(`${CONSOLE_FUNNEL_PATH}?from=${DAY}&to=${DAY}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toBe(
      'source,campaign,visitors,lookups,signups,checkouts,purchases,upsells,revenue_usd,cost_usd,cost_per_signup_usd,cost_per_purchase_usd,roas\r\n' +
        // A campaign is the link's text: one that reads as a formula is defused.
        `meta,"'=HYPERLINK(""x"")",1,0,0,0,0,0,0.00,,,,\r\n`,
    );

    for (const query of [
      `from=${NEXT_DAY}&to=${DAY}`,
      'from=2026-02-30&to=2026-03-01',
      'from=2026-01-01&to=2026-12-31',
      `from=${DAY}`,
      `from=${DAY}&to=${DAY}&route=Not%20a%20route`,
      `from=${DAY}&to=${DAY}&format=xml`,
      `from=${DAY}&to=${DAY}&extra=1`,
    ]) {
      const refused = await app()(`${CONSOLE_FUNNEL_PATH}?${query}`);
      expect(refused.status, query).toBe(400);
      expect(await refused.json()).toEqual({ ok: false, error: 'bad_request' });
    }
  });
});

it('the report reads the costs the console keeps', async () => {
  await env.CONFIG_DB.prepare(
    `INSERT INTO ad_costs (day, source, campaign, currency, amount_minor, uploaded_by, uploaded_at)
     VALUES (?1, 'google', 'search', 'USD', 12345, 'test', 0)`,
  )
    .bind(DAY)
    .run();
  const response = await freshApp()(`${CONSOLE_FUNNEL_PATH}?from=${DAY}&to=${DAY}`);
  const report: FunnelReportAnswer = await response.json();
  expect(report.campaigns).toEqual([
    expect.objectContaining({
      source: 'google',
      campaign: 'search',
      visitors: 0,
      costCents: 12345,
      roas: 0,
    }),
  ]);
});

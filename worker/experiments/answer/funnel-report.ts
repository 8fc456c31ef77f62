import type {
  CampaignSpend,
  FunnelCampaign,
  FunnelCounts,
  FunnelDay,
  FunnelReportAnswer,
} from '../../../shared/console-api/funnel';
import { EXPERIMENT_SHARD_COUNT } from '../assignment/assign';
import { REPORTING_RATES_DATE, reportedRevenue } from '../results/reporting-currency';
import { type ExperimentStores, shardStub } from '../store/experiment-stores';
import type { FunnelDayRow, FunnelRevenueRow } from '../store/funnel-statements';
import { csvField } from './results-csv';

/**
 * The console's funnel report (docs/marketers.md, "The funnel by campaign"): every shard's days
 * (../store/funnel-statements.ts) added up by day, route, source and campaign, and each campaign's
 * imported ad costs set against its sign-ups, purchases and revenue.
 */

/** What the shards keep of the report's days. */
export interface FunnelParts {
  days: FunnelDayRow[];
  revenue: FunnelRevenueRow[];
}

/** An ad cost of one day, source and campaign, in its own currency's minor units. */
export interface SpentOn {
  day: string;
  source: string;
  campaign: string;
  currency: string;
  amountMinor: number;
}

/**
 * Every shard's funnel days from `from` to `to` (UTC days, both included), each shard asked once,
 * in parallel. A shard that fails fails the read, never a partial sum.
 */
export async function readFunnelParts(
  stores: ExperimentStores,
  from: string,
  to: string,
): Promise<FunnelParts> {
  const parts = await Promise.all(
    Array.from({ length: EXPERIMENT_SHARD_COUNT }, (_, index) =>
      shardStub(stores, index).funnelDays(from, to),
    ),
  );
  return {
    days: parts.flatMap((part) => part.days),
    revenue: parts.flatMap((part) => part.revenue),
  };
}

/** A running sum: the counts, and each currency's minor units until they are converted. */
type Tally = Omit<FunnelCounts, 'revenueCents' | 'revenueUnconverted'> & {
  paid: Record<string, number>;
};

const emptyTally = (): Tally => ({
  visitors: 0,
  lookups: 0,
  signups: 0,
  checkouts: 0,
  purchases: 0,
  upsells: 0,
  paid: {},
});

function addDay(tally: Tally, row: FunnelDayRow): void {
  tally.visitors += row.visitors;
  tally.lookups += row.reached_lookup;
  tally.signups += row.signed_up;
  tally.checkouts += row.reached_checkout;
  tally.purchases += row.purchased;
  tally.upsells += row.upsold;
}

function addMoney(into: Record<string, number>, currency: string, minor: number): void {
  into[currency] = (into[currency] ?? 0) + minor;
}

function countsOf(tally: Tally): FunnelCounts {
  const { paid, ...counts } = tally;
  const revenue = reportedRevenue(paid);
  return { ...counts, revenueCents: revenue.minor, revenueUnconverted: revenue.unconverted };
}

/** Cost per result, in whole cents; null without a cost or a result. */
function perResult(costCents: number | null, results: number): number | null {
  return costCents === null || results === 0 ? null : Math.round(costCents / results);
}

function spendOf(counts: FunnelCounts, spent: Record<string, number> | undefined): CampaignSpend {
  const costCents = spent === undefined ? null : reportedRevenue(spent).minor;
  return {
    costCents,
    costPerSignupCents: perResult(costCents, counts.signups),
    costPerPurchaseCents: perResult(costCents, counts.purchases),
    roas:
      costCents === null || costCents === 0
        ? null
        : Math.round((counts.revenueCents / costCents) * 100) / 100,
  };
}

const keyOf = (...parts: string[]) => JSON.stringify(parts);

function tallyOf<K>(map: Map<string, { key: K; tally: Tally }>, id: string, key: K): Tally {
  let entry = map.get(id);
  if (entry === undefined) {
    entry = { key, tally: emptyTally() };
    map.set(id, entry);
  }
  return entry.tally;
}

/** The report's days, UTC, both included, and its route (null: every route). */
interface Query {
  from: string;
  to: string;
  route: string | null;
}

type DayKey = Omit<FunnelDay, keyof FunnelCounts>;
type CampaignKey = { source: string; campaign: string };

interface Tallies {
  days: Map<string, { key: DayKey; tally: Tally }>;
  campaigns: Map<string, { key: CampaignKey; tally: Tally }>;
  total: Tally;
}

const inRange = (query: Query, day: string) => day >= query.from && day <= query.to;

/**
 * The rows of `parts` in the query's days added up: by campaign over every route (a campaign's
 * cost is not split by the route its visitors took), by day and in the total for the routes shown.
 */
function tally(parts: FunnelParts, query: Query): Tallies {
  const tallies: Tallies = { days: new Map(), campaigns: new Map(), total: emptyTally() };
  const each = <Row extends DayKey>(rows: readonly Row[], add: (into: Tally, row: Row) => void) => {
    for (const row of rows) {
      if (!inRange(query, row.day)) continue;
      const { day, route, source, campaign } = row;
      add(tallyOf(tallies.campaigns, keyOf(source, campaign), { source, campaign }), row);
      if (query.route !== null && route !== query.route) continue;
      add(
        tallyOf(tallies.days, keyOf(day, route, source, campaign), {
          day,
          route,
          source,
          campaign,
        }),
        row,
      );
      add(tallies.total, row);
    }
  };
  each(parts.days, addDay);
  each(parts.revenue, (into, row) => addMoney(into.paid, row.currency, row.paid_minor));
  return tallies;
}

/**
 * The costs `spent` in the query's days, by campaign and in all; a campaign with costs and no
 * visitor yet is listed among the campaigns too.
 */
function costsOf(spent: readonly SpentOn[], query: Query, tallies: Tallies) {
  const byCampaign = new Map<string, Record<string, number>>();
  const all: Record<string, number> = {};
  for (const cost of spent) {
    if (!inRange(query, cost.day)) continue;
    const id = keyOf(cost.source, cost.campaign);
    tallyOf(tallies.campaigns, id, { source: cost.source, campaign: cost.campaign });
    const spentOn = byCampaign.get(id) ?? {};
    addMoney(spentOn, cost.currency, cost.amountMinor);
    byCampaign.set(id, spentOn);
    addMoney(all, cost.currency, cost.amountMinor);
  }
  return { byCampaign, all: Object.keys(all).length === 0 ? undefined : all };
}

const byDayThenKey = (a: FunnelDay, b: FunnelDay) =>
  a.day.localeCompare(b.day) ||
  a.route.localeCompare(b.route) ||
  a.source.localeCompare(b.source) ||
  a.campaign.localeCompare(b.campaign);

/**
 * The report of `parts` and the costs `spent` for the query's days: the days of one route when
 * it names one (of every route otherwise), and the campaigns of every route with their costs.
 * Days, then route, source and campaign, in order.
 */
export function funnelReport(
  parts: FunnelParts,
  spent: readonly SpentOn[],
  query: Query,
): FunnelReportAnswer {
  const tallies = tally(parts, query);
  const costs = costsOf(spent, query, tallies);
  const totals = countsOf(tallies.total);
  return {
    ...query,
    currency: 'USD',
    ratesDate: REPORTING_RATES_DATE,
    days: [...tallies.days.values()]
      .map(({ key, tally: counted }) => ({ ...key, ...countsOf(counted) }))
      .sort(byDayThenKey),
    campaigns: [...tallies.campaigns.entries()]
      .map(([id, { key, tally: counted }]): FunnelCampaign => {
        const counts = countsOf(counted);
        return { ...key, ...counts, ...spendOf(counts, costs.byCampaign.get(id)) };
      })
      .sort((a, b) => a.source.localeCompare(b.source) || a.campaign.localeCompare(b.campaign)),
    // One route's totals have no cost: the campaigns' costs are every route's.
    totals: { ...totals, ...spendOf(totals, query.route === null ? costs.all : undefined) },
  };
}

/** Cents as dollars with two decimals, '' for none. */
const dollars = (cents: number | null) => (cents === null ? null : (cents / 100).toFixed(2));

const COUNT_COLUMNS = [
  'visitors',
  'lookups',
  'signups',
  'checkouts',
  'purchases',
  'upsells',
  'revenue_usd',
] as const;

function countCells(counts: FunnelCounts): (string | number | null)[] {
  const { visitors, lookups, signups, checkouts, purchases, upsells, revenueCents } = counts;
  return [visitors, lookups, signups, checkouts, purchases, upsells, dollars(revenueCents)];
}

/**
 * The report as CSV: the campaigns over its days with their costs (`campaigns`), or its days by
 * route, source and campaign (`days`); money in US dollars at the reporting rates, as the page
 * shows it, each line ending in CRLF (RFC 4180).
 */
export function funnelCsv(report: FunnelReportAnswer, table: 'campaigns' | 'days'): string {
  const lines =
    table === 'days'
      ? [
          ['day', 'route', 'source', 'campaign', ...COUNT_COLUMNS],
          ...report.days.map((row) => [
            row.day,
            row.route,
            row.source,
            row.campaign,
            ...countCells(row),
          ]),
        ]
      : [
          [
            'source',
            'campaign',
            ...COUNT_COLUMNS,
            'cost_usd',
            'cost_per_signup_usd',
            'cost_per_purchase_usd',
            'roas',
          ],
          ...report.campaigns.map((row) => [
            row.source,
            row.campaign,
            ...countCells(row),
            dollars(row.costCents),
            dollars(row.costPerSignupCents),
            dollars(row.costPerPurchaseCents),
            row.roas,
          ]),
        ];
  return lines.map((cells) => `${cells.map(csvField).join(',')}\r\n`).join('');
}

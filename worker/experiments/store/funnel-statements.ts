import { type Outcome, outcomeFlagStatements, SPLIT_OUTCOME_FLAGS } from './outcomes';
import type { ExperimentPurchase, FirstVisit, Statement } from './split-statements';
import { COUNTED_STEPS } from './strata-statements';

/**
 * The funnel by route, source and campaign (shards only): every new visitor's first visit, the
 * steps they reached after it and what they paid, counted on the UTC day of that first visit, for
 * the console's funnel report (docs/marketers.md, "The funnel by campaign"). Written in the same
 * shard requests that already carry a visitor's first visit (route_days), their steps and their
 * purchases, so it costs no request of its own.
 *
 * - `fn_visitors`: one row per visitor whose first page the worker saw (about 60 bytes), with 0/1
 *   step flags, kept FUNNEL_VISITORS_KEPT_MS: long enough for a visitor's sign-up, purchase and
 *   upsell, after which the day's counts stand as they are.
 * - `fn_days`: visitors and each step by day, route, source and campaign, kept by triggers in the
 *   same transaction; `fn_revenue` their first payments by currency (minor units), each
 *   subscription once (`fn_purchases`).
 * - `fn_campaign_days`: the campaigns a day has counted apart. A campaign is what a link's
 *   `utm_campaign` says, so anyone can make up new ones: past FUNNEL_CAMPAIGNS_PER_DAY in a shard
 *   and day, a new one is counted as OTHER_CAMPAIGNS, and the rows a day can have stay bounded.
 *
 * Counted are visitors, as the experiments count them (every-experiment-schema.ts): a visitor's
 * step counts once, on their first visit's day, whenever it happens within the kept window.
 */

/** How long a visitor's row is kept for their later steps and purchases to find. */
export const FUNNEL_VISITORS_KEPT_MS = 35 * 24 * 60 * 60 * 1000;

/** How long the days are kept: as the experiments' visitor rows (VISITOR_ROWS_KEPT_MS). */
const FUNNEL_DAYS_KEPT_DAYS = 400;

/** Distinct campaigns one shard counts apart in one day; the rest are OTHER_CAMPAIGNS. */
export const FUNNEL_CAMPAIGNS_PER_DAY = 100;

/** Where a day's campaigns past FUNNEL_CAMPAIGNS_PER_DAY are counted. */
export const OTHER_CAMPAIGNS = '(other campaigns)';

/** The steps of the funnel after the first visit, in order, as the columns name them. */
const FUNNEL_STEPS = COUNTED_STEPS;

const stepColumns = FUNNEL_STEPS.map((step) => `  ${step} INTEGER NOT NULL DEFAULT 0,`).join('\n');
const stepChanges = FUNNEL_STEPS.map(
  (step) => `    ${step} = ${step} + NEW.${step} - OLD.${step}`,
).join(',\n');
const KEY = 'day, route, source, campaign';
const KEY_OF_NEW = 'NEW.day, NEW.route, NEW.source, NEW.campaign';

export const FUNNEL_MIGRATION: readonly string[] = [
  `CREATE TABLE fn_visitors (
  visitor_id TEXT PRIMARY KEY,
  first_at INTEGER NOT NULL,
  day TEXT NOT NULL,
  route TEXT NOT NULL,
  source TEXT NOT NULL,
  campaign TEXT NOT NULL,
${stepColumns.replace(/,$/, '')}
) WITHOUT ROWID`,
  `CREATE TABLE fn_days (
  day TEXT NOT NULL,
  route TEXT NOT NULL,
  source TEXT NOT NULL,
  campaign TEXT NOT NULL,
  visitors INTEGER NOT NULL DEFAULT 0,
${stepColumns}
  PRIMARY KEY (${KEY})
) WITHOUT ROWID`,
  `CREATE TABLE fn_revenue (
  day TEXT NOT NULL,
  route TEXT NOT NULL,
  source TEXT NOT NULL,
  campaign TEXT NOT NULL,
  currency TEXT NOT NULL,
  paid_minor INTEGER NOT NULL,
  PRIMARY KEY (${KEY}, currency)
) WITHOUT ROWID`,
  `CREATE TABLE fn_purchases (
  visitor_id TEXT NOT NULL,
  subscription_id TEXT NOT NULL,
  upsell INTEGER NOT NULL,
  amount_minor INTEGER,
  currency TEXT,
  PRIMARY KEY (visitor_id, subscription_id)
) WITHOUT ROWID`,
  `CREATE TABLE fn_campaign_days (
  day TEXT NOT NULL,
  campaign TEXT NOT NULL,
  PRIMARY KEY (day, campaign)
) WITHOUT ROWID`,
  `CREATE TRIGGER fn_visitor_counted AFTER INSERT ON fn_visitors
BEGIN
  INSERT INTO fn_days (${KEY}, visitors) VALUES (${KEY_OF_NEW}, 1)
    ON CONFLICT (${KEY}) DO UPDATE SET visitors = visitors + 1;
END`,
  `CREATE TRIGGER fn_purchase_counted AFTER INSERT ON fn_purchases
BEGIN
  UPDATE fn_visitors SET purchased = 1
  WHERE visitor_id = NEW.visitor_id AND NEW.upsell = 0 AND purchased = 0;
  UPDATE fn_visitors SET upsold = 1
  WHERE visitor_id = NEW.visitor_id AND NEW.upsell = 1 AND upsold = 0;
  INSERT INTO fn_revenue (${KEY}, currency, paid_minor)
    SELECT ${KEY}, NEW.currency, NEW.amount_minor FROM fn_visitors
    WHERE visitor_id = NEW.visitor_id AND NEW.amount_minor > 0 AND NEW.currency IS NOT NULL
    ON CONFLICT (${KEY}, currency) DO UPDATE SET paid_minor = paid_minor + excluded.paid_minor;
END`,
  `CREATE TRIGGER fn_visitor_step_counted
AFTER UPDATE OF ${FUNNEL_STEPS.join(', ')} ON fn_visitors
BEGIN
  UPDATE fn_days SET
${stepChanges}
  WHERE day = NEW.day AND route = NEW.route AND source = NEW.source AND campaign = NEW.campaign;
END`,
];

/**
 * The campaign a new visitor is counted under on `day` ('YYYY-MM-DD', ?1): their own when the day
 * counts it (the statement before took it while the day had room, FUNNEL_CAMPAIGNS_PER_DAY), else
 * OTHER_CAMPAIGNS. The empty campaign (a link without one) always has its own row.
 */
const CAMPAIGN_COUNTED = `CASE
  WHEN ?2 = '' OR EXISTS (SELECT 1 FROM fn_campaign_days WHERE day = ?1 AND campaign = ?2)
  THEN ?2 ELSE '${OTHER_CAMPAIGNS}' END`;

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * Each new visitor's row, once (a visitor already counted keeps theirs): two statements a visitor,
 * the campaign taken for the day first, so the row's campaign is the one the day counts.
 */
export function funnelVisitStatements(visits: readonly FirstVisit[]): Statement[] {
  return visits.flatMap((visit) => {
    const day = utcDay(visit.at);
    return [
      {
        sql: `INSERT OR IGNORE INTO fn_campaign_days (day, campaign)
              SELECT ?1, ?2 WHERE ?2 <> ''
                AND (SELECT count(*) FROM fn_campaign_days WHERE day = ?1)
                  < ${FUNNEL_CAMPAIGNS_PER_DAY}`,
        params: [day, visit.campaign],
      },
      {
        sql: `INSERT OR IGNORE INTO fn_visitors
                (visitor_id, first_at, day, route, source, campaign)
              VALUES (?3, ?4, ?1, ?5, ?6, ${CAMPAIGN_COUNTED})`,
        params: [day, visit.campaign, visit.visitorId, visit.at, visit.route, visit.source],
      },
    ];
  });
}

/**
 * The steps the outcomes mark (SPLIT_OUTCOME_FLAGS: a lookup, a sign-up, the checkout), each on
 * the row of a visitor first seen at or before it.
 */
export function funnelOutcomeStatements(outcomes: readonly Outcome[]): Statement[] {
  return outcomeFlagStatements(
    { table: 'fn_visitors', since: 'first_at' },
    SPLIT_OUTCOME_FLAGS,
    outcomes,
  );
}

/**
 * Each purchase of a visitor first seen at or before it, once per subscription (fn_purchases'
 * key): its trigger sets `purchased` for a main plan or `upsold` for any other, and adds its
 * amount to the day's revenue in its currency. One statement a purchase.
 */
export function funnelPurchaseStatements(purchases: readonly ExperimentPurchase[]): Statement[] {
  return purchases.map((purchase) => ({
    sql: `INSERT OR IGNORE INTO fn_purchases
            (visitor_id, subscription_id, upsell, amount_minor, currency)
          SELECT visitor_id, ?2, ?3, ?4, ?5 FROM fn_visitors
          WHERE visitor_id = ?1 AND first_at <= ?6`,
    params: [
      purchase.visitorId,
      purchase.subscriptionId,
      purchase.upsell ? 1 : 0,
      purchase.amountMinor,
      purchase.currency,
      purchase.at,
    ],
  }));
}

/** A day's counts on one route, source and campaign, as a shard keeps them (fn_days). */
export interface FunnelDayRow {
  day: string;
  route: string;
  source: string;
  campaign: string;
  visitors: number;
  reached_lookup: number;
  signed_up: number;
  reached_checkout: number;
  purchased: number;
  upsold: number;
}

/** A day's first payments in one currency on one route, source and campaign (fn_revenue). */
export interface FunnelRevenueRow {
  day: string;
  route: string;
  source: string;
  campaign: string;
  currency: string;
  paid_minor: number;
}

/**
 * The days from `from` to `to` ('YYYY-MM-DD', both included), every route's: a campaign's cost
 * is set against all its visitors, so the report narrows to one route itself.
 */
export function funnelDaysStatement(from: string, to: string): Statement {
  return {
    sql: `SELECT ${KEY}, visitors, ${FUNNEL_STEPS.join(', ')} FROM fn_days
          WHERE day >= ?1 AND day <= ?2`,
    params: [from, to],
  };
}

/** The same days' first payments by currency. */
export function funnelRevenueStatement(from: string, to: string): Statement {
  return {
    sql: `SELECT ${KEY}, currency, paid_minor FROM fn_revenue WHERE day >= ?1 AND day <= ?2`,
    params: [from, to],
  };
}

/**
 * The days older than FUNNEL_DAYS_KEPT_DAYS before `now`, and the campaigns they counted: a few
 * rows a day, one statement each by their key's `day`.
 */
export function funnelDaysPruneStatements(now: number): Statement[] {
  const before = utcDay(now - FUNNEL_DAYS_KEPT_DAYS * 24 * 60 * 60 * 1000);
  return ['fn_days', 'fn_revenue', 'fn_campaign_days'].map((table) => ({
    sql: `DELETE FROM ${table} WHERE day < ?1`,
    params: [before],
  }));
}

/**
 * Up to `limit` visitors first seen before `before` (epoch ms) and their purchases: the days'
 * counts stay (no trigger fires on a delete). How many visitors the statements delete is the
 * caller's to read from the last one.
 */
export function funnelVisitorsPruneStatements(before: number, limit: number): Statement[] {
  const old = `SELECT visitor_id FROM fn_visitors WHERE first_at < ?1 LIMIT ${limit}`;
  return [
    {
      sql: `DELETE FROM fn_purchases WHERE visitor_id IN (SELECT visitor_id FROM (${old}))`,
      params: [before],
    },
    { sql: `DELETE FROM fn_visitors WHERE visitor_id IN (${old})`, params: [before] },
  ];
}

import type { Arm, Exposure } from '../exposure/exposure-store';
import { type Outcome, SPLIT_OUTCOME_FLAGS } from './outcomes';

/**
 * The SQL that writes and reads the split test's rows (shard-schema.ts), the same in an
 * experiment shard and in EVENTS_DB: each store runs these statements its own way (a shard with
 * `ctx.storage.sql` in one transaction, D1 as one batch). The per-arm totals follow by the
 * tables' triggers in the same transaction as the visitor's row.
 */
export interface Statement {
  sql: string;
  params: (string | number | null)[];
}

/** A server-verified purchase to count for the visitor who bought it, if they were exposed. */
export interface ExperimentPurchase {
  subscriptionId: string;
  visitorId: string;
  /** In the currency's minor units; null when the product API named no amount or currency. */
  amountMinor: number | null;
  currency: string | null;
  /**
   * A plan whose role is not main (shared/plans/catalogue.ts: an upsell or the guide): every
   * experiment counts it as `upsold`, not `purchased`; the split's own tables count both alike.
   */
  upsell?: boolean;
  /** Epoch ms on the worker's clock. */
  at: number;
  /** The buyer's route (stepRouteOf), when known: the steps counted by route (route-steps.ts). */
  route?: string;
}

/**
 * Each visitor's exposure, once: a visitor already exposed (in this phase or an earlier one, or
 * earlier in the list) keeps their first row. One statement however many.
 */
export function exposureStatement(exposures: readonly Exposure[]): Statement {
  const rows = exposures.map((e) => [
    e.visitorId,
    e.phase,
    e.variant,
    e.configVersion,
    e.at,
    e.route,
    e.source,
  ]);
  // `WHERE true` tells SQLite's parser the ON below starts the upsert, not a join's constraint.
  return {
    sql: `INSERT INTO exposures (visitor_id, phase, variant, config_version, exposed_at, route, source)
          SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                 json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                 json_extract(value, '$[6]')
          FROM json_each(?1) WHERE true
          ON CONFLICT (visitor_id) DO NOTHING`,
    params: [JSON.stringify(rows)],
  };
}

/** A new visitor whose route was chosen on a funnel screen they were shown (route_days). */
export interface FirstVisit {
  /** The userUuid made for the request: it names the shard, and is not kept. */
  visitorId: string;
  route: string;
  /** Epoch ms; counted on its UTC day. */
  at: number;
  /** The first touch's source (worker/routing/first-touch.ts): the funnel by campaign. */
  source: string;
  /** The first touch's `utm_campaign` as tagged, '' without one: the funnel by campaign. */
  campaign: string;
}

/**
 * +1 for each first visit on its route and UTC day. One statement however many; a route and day
 * named twice counts twice (each row of the SELECT is its own upsert).
 */
export function firstVisitStatement(visits: readonly FirstVisit[]): Statement {
  const rows = visits.map((visit) => [visit.route, visit.at]);
  return {
    sql: `INSERT INTO route_days (route, day, visits)
          SELECT json_extract(value, '$[0]'),
                 date(json_extract(value, '$[1]') / 1000, 'unixepoch'), 1
          FROM json_each(?1) WHERE true
          ON CONFLICT (route, day) DO UPDATE SET visits = visits + 1`,
    params: [JSON.stringify(rows)],
  };
}

/** First visits by route from day `from` to day `to` ('YYYY-MM-DD', both included). */
export function routeVisitsStatement(from: string, to: string): Statement {
  return {
    sql: `SELECT route, SUM(visits) AS visits FROM route_days
          WHERE day >= ?1 AND day <= ?2 GROUP BY route ORDER BY route`,
    params: [from, to],
  };
}

/** A known bot's draw, counted in the arm apart from the exposures. */
export function botStatement(arm: Arm): Statement {
  return {
    sql: `INSERT INTO experiment_arms (phase, variant, bots) VALUES (?1, ?2, 1)
          ON CONFLICT (phase, variant) DO UPDATE SET bots = bots + 1`,
    params: [arm.phase, arm.variant],
  };
}

/**
 * Each outcome's flag set on its visitor's row, if the visitor was exposed; a flag already set is
 * left alone, so outcomes recorded twice change nothing. One statement per flag.
 */
export function outcomeStatements(outcomes: readonly Outcome[]): Statement[] {
  return Object.entries(SPLIT_OUTCOME_FLAGS).flatMap(([event, flag]) => {
    const visitors = [
      ...new Set(outcomes.filter((o) => o.event === event).map((o) => o.visitorId)),
    ];
    if (visitors.length === 0) return [];
    // `flag` is one of the constants of SPLIT_OUTCOME_FLAGS, never input.
    return [
      {
        sql: `UPDATE exposures SET ${flag} = 1
              WHERE ${flag} = 0 AND visitor_id IN (SELECT value FROM json_each(?1))`,
        params: [JSON.stringify(visitors)],
      },
    ];
  });
}

/**
 * Each purchase joins the row of the visitor who bought it, if that visitor was exposed, in their
 * phase and variant, once per subscription id: a message delivered again changes nothing. Its
 * trigger sets the visitor's `purchased` and moves them in the arm's revenue histogram. One
 * statement per purchase, so each trigger sees the purchases before it.
 */
export function purchaseStatements(purchases: readonly ExperimentPurchase[]): Statement[] {
  return purchases.map((purchase) => ({
    sql: `INSERT OR IGNORE INTO experiment_purchases
            (subscription_id, visitor_id, phase, variant, amount_minor, currency, recorded_at)
          SELECT ?1, visitor_id, phase, variant, ?3, ?4, ?5 FROM exposures WHERE visitor_id = ?2`,
    params: [
      purchase.subscriptionId,
      purchase.visitorId,
      purchase.amountMinor,
      purchase.currency,
      purchase.at,
    ],
  }));
}

/** A phase's per-arm totals: a few rows per variant, never the visitors' rows. */
export function armRowsStatement(phase: number): Statement {
  return {
    sql: `SELECT variant, exposed, reached_lookup, signed_up, reached_checkout, purchased,
                 purchases, unpriced_purchases, bots
          FROM experiment_arms WHERE phase = ?1 ORDER BY variant`,
    params: [phase],
  };
}

/** A phase's revenue histograms, per variant and currency. */
export function revenueRowsStatement(phase: number): Statement {
  return {
    sql: `SELECT variant, currency, revenue_minor, visitors FROM experiment_revenue
          WHERE phase = ?1 AND visitors > 0 ORDER BY variant, currency, revenue_minor`,
    params: [phase],
  };
}

/** A phase's counts by exposure day. */
export function dayRowsStatement(phase: number): Statement {
  return {
    sql: `SELECT day, variant, exposed, reached_lookup, signed_up, reached_checkout, purchased,
                 first_exposed_at
          FROM experiment_days WHERE phase = ?1 ORDER BY day, variant`,
    params: [phase],
  };
}

/** A phase's revenue histograms by exposure day. */
export function dayRevenueRowsStatement(phase: number): Statement {
  return {
    sql: `SELECT day, variant, currency, revenue_minor, visitors FROM experiment_day_revenue
          WHERE phase = ?1 AND visitors > 0 ORDER BY day, variant, currency, revenue_minor`,
    params: [phase],
  };
}

/** Every phase anyone was exposed in (bots aside). */
export function phasesStatement(): Statement {
  return {
    sql: 'SELECT DISTINCT phase FROM experiment_arms WHERE exposed > 0 ORDER BY phase DESC',
    params: [],
  };
}

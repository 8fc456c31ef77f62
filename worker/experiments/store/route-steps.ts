import { slug } from '../../../shared/config/fields';
import type { RouteStep } from '../../../shared/console-api/routes';
import type { Outcome } from './outcomes';
import type { ExperimentPurchase, Statement } from './split-statements';

/**
 * How often each route's visitors reached each funnel step, by UTC day (route_step_days in the
 * shards): the console's duration estimate reads the traffic at an experiment's trigger from it
 * (a paywall test only counts those who reach the paywall). Written in the same shard request as
 * the outcomes and purchases that set the experiments' flags, so it costs no request; a few rows
 * a route, day and step, never a row per visitor.
 *
 * Counted are events, not distinct visitors: most visitors have no row in any experiment to
 * tell a first from a repeat, and a row per visitor and step would cost every visitor bytes
 * (../exposure/exposure-store.ts). A visitor's repeats within one consumer batch count once; a reload of the
 * paywall in another batch, or a batch the queue delivers again after another shard failed,
 * counts again. An estimate, as the console says; the experiments' results stay exact.
 */

/** The step each outcome the worker saw marks; a declined payment marks none. */
const OUTCOME_STEPS: Partial<Record<Outcome['event'], RouteStep>> = {
  onboarding_start: 'lookup',
  lead: 'signup',
  checkout_screen_load: 'paywall',
};

/** A step a visitor reached on their route, at an instant (epoch ms, counted on its UTC day). */
export interface ReachedStep {
  visitorId: string;
  route: string;
  step: RouteStep;
  at: number;
}

/** The console reads the last 7 days; an event dated earlier would only add rows. */
const STEP_DAYS_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The route a step's event carried (event_properties.route, the route the worker kept or chose
 * for the visitor, worker/collector/seen-steps.ts) to count its step on, when it could be a route id and the
 * event is dated (`at`) within the week before it was received: a message from before, or one
 * redriven by hand, would otherwise only add rows.
 */
export function stepRouteOf(route: unknown, at: number, receivedAt: number): string | undefined {
  if (!(at >= receivedAt - STEP_DAYS_KEPT_MS && at <= receivedAt)) return undefined;
  return typeof route === 'string' && slug.safeParse(route).success ? route : undefined;
}

/** The steps the outcomes mark, of those that carried a route. */
export function stepsOfOutcomes(outcomes: readonly Outcome[]): ReachedStep[] {
  return outcomes.flatMap(({ visitorId, event, route, at }) => {
    const step = OUTCOME_STEPS[event];
    return step && route !== undefined ? [{ visitorId, route, step, at }] : [];
  });
}

/**
 * A main plan's purchase: its buyer goes on to the upsell. An upsell's own purchase is past it,
 * and counts nothing.
 */
export function stepsOfPurchases(purchases: readonly ExperimentPurchase[]): ReachedStep[] {
  return purchases.flatMap(({ visitorId, route, upsell, at }) =>
    !upsell && route !== undefined ? [{ visitorId, route, step: 'upsell' as const, at }] : [],
  );
}

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * +n for each route, day and step, a visitor counted once per step and day among these (the
 * events of one batch). One statement however many; none when nothing is to count.
 */
export function routeStepStatements(reached: readonly ReachedStep[]): Statement[] {
  const seen = new Set<string>();
  const counts = new Map<string, [string, string, RouteStep, number]>();
  for (const { visitorId, route, step, at } of reached) {
    const day = utcDay(at);
    const once = JSON.stringify([visitorId, route, step, day]);
    if (seen.has(once)) continue;
    seen.add(once);
    const key = JSON.stringify([route, day, step]);
    const row = counts.get(key);
    if (row) row[3] += 1;
    else counts.set(key, [route, day, step, 1]);
  }
  if (counts.size === 0) return [];
  return [
    {
      sql: `INSERT INTO route_step_days (route, day, step, reached)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                   json_extract(value, '$[2]'), json_extract(value, '$[3]')
            FROM json_each(?1) WHERE true
            ON CONFLICT (route, day, step) DO UPDATE SET reached = reached + excluded.reached`,
      params: [JSON.stringify([...counts.values()])],
    },
  ];
}

/** Steps reached by route from day `from` to day `to` ('YYYY-MM-DD', both included). */
export function routeStepsStatement(from: string, to: string): Statement {
  return {
    sql: `SELECT route, step, SUM(reached) AS reached FROM route_step_days
          WHERE day >= ?1 AND day <= ?2 GROUP BY route, step ORDER BY route, step`,
    params: [from, to],
  };
}

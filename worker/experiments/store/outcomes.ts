import type { FunnelEventName } from '../../../shared/analytics/catalogue';
import type { DeclineClass } from '../../../shared/decline-class';
import type { Statement } from './split-statements';

/**
 * The funnel events that mark an exposed visitor's steps in the split's own tables (SPEC.md §4
 * Analytics events), and the flag each sets on the visitor's row in `exposures`: the phone lookup
 * relayed, the sign-up (a lead), a checkout or paywall served to a signed-in visitor, each as the
 * worker saw it (worker/collector/seen-steps.ts), never as a page reports it. A purchase is not among them:
 * only the server's verified purchases set `purchased`
 * (worker/experiments/store/experiment-purchase.ts).
 */
export const SPLIT_OUTCOME_FLAGS = {
  onboarding_start: 'reached_lookup',
  lead: 'signed_up',
  checkout_screen_load: 'reached_checkout',
} as const satisfies Partial<Record<FunnelEventName, string>>;

/**
 * The flags the same events set in every experiment's rows (`xp_exposures`), and a payment the
 * provider declined (subs_purchase_failed, a guardrail). The steps come from what the worker
 * saw (worker/collector/seen-steps.ts); a decline only from the worker's reading of the charge answer it relayed
 * (worker/purchases/after-charge.ts), never from a page's event, which anyone can post.
 */
export const EXPERIMENT_FLAGS = {
  ...SPLIT_OUTCOME_FLAGS,
  subs_purchase_failed: 'declined',
} as const satisfies Partial<Record<FunnelEventName, string>>;

type OutcomeEvent = keyof typeof EXPERIMENT_FLAGS;

/** A step the worker saw (SPLIT_OUTCOME_FLAGS): the events the consumer takes from it alone. */
export function isStepEvent(eventType: string): eventType is keyof typeof SPLIT_OUTCOME_FLAGS {
  return Object.hasOwn(SPLIT_OUTCOME_FLAGS, eventType);
}

export interface Outcome {
  visitorId: string;
  event: OutcomeEvent;
  /**
   * When it happened, epoch ms on the worker's clock (the worker saw it): it counts in an
   * experiment only at or after the visitor's exposure to it.
   */
  at: number;
  /**
   * The visitor's route as their page's event carried it (stepRouteOf), when it did: the steps
   * counted by route (route-steps.ts).
   */
  route?: string;
  /**
   * A provider's decline's class (subs_purchase_failed's `decline_class`), when the event named
   * one of DECLINE_CLASSES: the declines by class (decline-statements.ts).
   */
  declineClass?: DeclineClass;
}

/**
 * Each outcome's flag set on its visitor's row of `rows.table` made at or before it (its time
 * column `rows.since`); a flag already set is left alone, so an outcome recorded twice changes
 * nothing. One statement per flag with any outcome: a visitor's latest outcome of that kind
 * decides (a later one counts wherever an earlier one does).
 */
export function outcomeFlagStatements(
  rows: { table: string; since: string },
  flags: Readonly<Record<string, string>>,
  outcomes: readonly Pick<Outcome, 'visitorId' | 'event' | 'at'>[],
): Statement[] {
  const { table, since } = rows;
  return Object.entries(flags).flatMap(([event, flag]) => {
    const latest = new Map<string, number>();
    for (const outcome of outcomes) {
      if (outcome.event !== event) continue;
      latest.set(outcome.visitorId, Math.max(latest.get(outcome.visitorId) ?? 0, outcome.at));
    }
    if (latest.size === 0) return [];
    // `table`, `since` and `flag` are the callers' constants, never input.
    return [
      {
        sql: `UPDATE ${table} SET ${flag} = 1
              FROM (SELECT json_extract(value, '$[0]') AS visitor_id,
                           json_extract(value, '$[1]') AS at
                    FROM json_each(?1)) AS o
              WHERE ${table}.visitor_id = o.visitor_id AND ${table}.${since} <= o.at
                AND ${table}.${flag} = 0`,
        params: [JSON.stringify([...latest])],
      },
    ];
  });
}

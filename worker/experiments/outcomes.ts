import type { FunnelEventName } from '../../shared/analytics/catalogue';

/**
 * The funnel events that mark an exposed visitor's steps (SPEC.md §4 Analytics events), and the
 * flag each sets on the visitor's row in EVENTS_DB exposures: the phone lookup started
 * (PhoneForm), the sign-up (a lead), a checkout or paywall shown. A purchase is not among them:
 * only the server's verified purchases set `purchased` (worker/experiments/experiment-purchase.ts).
 */
const OUTCOME_FLAGS = {
  onboarding_start: 'reached_lookup',
  lead: 'signed_up',
  checkout_screen_load: 'reached_checkout',
} as const satisfies Partial<Record<FunnelEventName, string>>;

type OutcomeEvent = keyof typeof OUTCOME_FLAGS;

export function isOutcomeEvent(eventType: string): eventType is OutcomeEvent {
  return Object.hasOwn(OUTCOME_FLAGS, eventType);
}

export interface Outcome {
  visitorId: string;
  event: OutcomeEvent;
}

/**
 * Sets each outcome's flag on its visitor's row, if the visitor was exposed; a flag already set
 * is left alone, so outcomes recorded twice (a message the queue delivers again) change nothing.
 * One statement per flag, all in one transaction.
 */
export async function recordOutcomes(db: D1Database, outcomes: readonly Outcome[]): Promise<void> {
  const statements = Object.entries(OUTCOME_FLAGS).flatMap(([event, flag]) => {
    const visitors = [
      ...new Set(outcomes.filter((o) => o.event === event).map((o) => o.visitorId)),
    ];
    if (visitors.length === 0) return [];
    // `flag` is one of the constants above, never input.
    return [
      db
        .prepare(
          `UPDATE exposures SET ${flag} = 1
           WHERE ${flag} = 0 AND visitor_id IN (SELECT value FROM json_each(?1))`,
        )
        .bind(JSON.stringify(visitors)),
    ];
  });
  if (statements.length > 0) await db.batch(statements);
}

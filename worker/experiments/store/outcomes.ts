import type { FunnelEventName } from '../../../shared/analytics/catalogue';
import type { DeclineClass } from '../../../shared/decline-class';

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

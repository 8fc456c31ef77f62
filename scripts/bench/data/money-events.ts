import { postLifecycleEvent } from '../../portal/lifecycle-post';
import type { PortalServer } from './portal-server';

/**
 * The money after the sale, for the data benchmark: each subscription the paying visitors bought
 * renewed `renewals` times and then cancelled, its life as a subscription, as the product API
 * tells the worker (its signed lifecycle hook, worker/lifecycle/), each event first kept on the
 * portal's books. They run before the paying phase's last snapshot, so what the worker writes for
 * them (the ledger shards, the card's attempts, the money events' queue messages and archive
 * lines, the experiments' revenue) counts in a paying visitor's figures: at a steady state a
 * subscriber's renewals arrive at the rate new payers do, times `renewals`.
 */

/** The lifecycle hook's key in the benchmark's worker, and the portal's signing key. */
export const BENCH_LIFECYCLE_KEY = 'bench-lifecycle-key';

/**
 * Renewals a subscriber brings over their life (`--renewals`): an assumption, said in the report.
 * Three is a monthly subscription kept four months in all.
 */
export const DEFAULT_RENEWALS = 3;

export interface MoneyEventsSent {
  subscriptions: number;
  /** One-time purchases, which no renewal reaches. */
  notRenewing: number;
  /** Renewals the worker took. */
  sent: number;
  /** Cancellations the worker took, one ending each renewing subscription. */
  cancelled: number;
  failed: string[];
}

/** Posts one kept event to the worker's lifecycle hook, signed; why it was refused, or null. */
async function post(worker: URL, body: string): Promise<string | null> {
  const answer = await postLifecycleEvent(worker, BENCH_LIFECYCLE_KEY, body);
  return answer.ok ? null : `${answer.status} ${await answer.text()}`;
}

/**
 * Renews every renewing subscription of the portal `renewals` times through the worker's hook,
 * then cancels it; a one-time purchase gets neither.
 */
export async function renewEverySubscription(
  portal: PortalServer,
  worker: URL,
  renewals: number,
): Promise<MoneyEventsSent> {
  const outcome: MoneyEventsSent = {
    subscriptions: 0,
    notRenewing: 0,
    sent: 0,
    cancelled: 0,
    failed: [],
  };
  for (const subscription of await portal.subscriptionIds()) {
    outcome.subscriptions += 1;
    let renews = true;
    for (let renewal = 0; renews && renewal < renewals; renewal += 1) {
      const body = await portal.lifecycleBody(subscription, 'renewal');
      if (body === null) {
        renews = false;
        outcome.notRenewing += 1;
        continue;
      }
      const refused = await post(worker, body);
      if (refused === null) outcome.sent += 1;
      else outcome.failed.push(`renewal of ${subscription}: ${refused}`);
    }
    if (!renews) continue;
    const end = await portal.lifecycleBody(subscription, 'cancellation');
    const refused = end === null ? 'the portal could not cancel it' : await post(worker, end);
    if (refused === null) outcome.cancelled += 1;
    else outcome.failed.push(`cancellation of ${subscription}: ${refused}`);
  }
  return outcome;
}

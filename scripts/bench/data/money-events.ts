import { LIFECYCLE_PATH, LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import { signatureHeaderFor } from '../../../worker/lifecycle/signature';
import type { PortalServer } from './portal-server';

/**
 * The money after the sale, for the data benchmark: each subscription the paying visitors bought
 * renewed `renewals` times, as the product API tells the worker (its signed lifecycle hook,
 * worker/lifecycle/), each renewal first kept on the portal's books. They run before the paying
 * phase's last snapshot, so what the worker writes for them (the ledger shards, the money
 * events' rows, queue and archive, the experiments' revenue) counts in a paying visitor's figures:
 * a subscriber's renewals over their life, which at a steady state arrive at the rate new payers
 * do times `renewals`.
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
  sent: number;
  failed: string[];
}

/** Renews every subscription of the portal `renewals` times through the worker's hook. */
export async function renewEverySubscription(
  portal: PortalServer,
  worker: URL,
  renewals: number,
): Promise<MoneyEventsSent> {
  const outcome: MoneyEventsSent = { subscriptions: 0, notRenewing: 0, sent: 0, failed: [] };
  for (const subscription of await portal.subscriptionIds()) {
    outcome.subscriptions += 1;
    for (let renewal = 0; renewal < renewals; renewal += 1) {
      const body = await portal.lifecycleBody(subscription, 'renewal');
      if (body === null) {
        outcome.notRenewing += 1;
        break;
      }
      const answer = await fetch(new URL(LIFECYCLE_PATH, worker), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [LIFECYCLE_SIGNATURE_HEADER]: await signatureHeaderFor(
            BENCH_LIFECYCLE_KEY,
            Math.floor(Date.now() / 1000),
            body,
          ),
        },
        body,
      });
      if (answer.ok) outcome.sent += 1;
      else
        outcome.failed.push(`renewal of ${subscription}: ${answer.status} ${await answer.text()}`);
    }
  }
  return outcome;
}

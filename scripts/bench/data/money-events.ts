import type { LifecycleEventType } from '../../../shared/api/lifecycle';
import { postLifecycleEvent } from '../../portal/lifecycle-post';
import type { PortalServer } from './portal-server';
import { leaveThroughPage } from './save-offer';

/**
 * The money after the sale, for the data benchmark: each subscription the paying visitors bought
 * renewed `renewals` times, a share of them then refunded or charged back, and each then left
 * through its manage link's page (./save-offer.ts): saved by the save offer, or cancelled there,
 * its life as a subscription, as the product API tells the worker (its signed lifecycle hook,
 * worker/lifecycle/), each event first kept on the portal's books. They run before the paying
 * phase's last snapshot, so what the worker writes for them (the ledger shards, the card's
 * attempts, the money events' queue messages and archive lines, the experiments' revenue, the
 * save offer's counts) counts in a paying visitor's figures: at a steady state a subscriber's
 * renewals arrive at the rate new payers do, times `renewals`.
 */

/** The lifecycle hook's key in the benchmark's worker, and the portal's signing key. */
export const BENCH_LIFECYCLE_KEY = 'bench-lifecycle-key';

/**
 * Renewals a subscriber brings over their life (`--renewals`): an assumption, said in the report.
 * Three is a monthly subscription kept four months in all.
 */
export const DEFAULT_RENEWALS = 3;

/**
 * The shares of renewing subscriptions refunded (`--refunds`) and charged back (`--chargebacks`)
 * after their renewals: assumptions, said in the report. A subscription app refunds a few in a
 * hundred and sees about one chargeback in a hundred.
 */
export const DEFAULT_REFUND_SHARE = 0.05;
export const DEFAULT_CHARGEBACK_SHARE = 0.01;

export interface SubscriberLife {
  renewals: number;
  refundShare: number;
  chargebackShare: number;
  /** The share of leaving subscribers who take the save offer's discount where it is made. */
  saveShare: number;
}

export interface MoneyEventsSent {
  subscriptions: number;
  /** One-time purchases, which no renewal reaches. */
  notRenewing: number;
  /** Renewals the worker took. */
  sent: number;
  /** Refunds and chargebacks the worker took. */
  refunded: number;
  chargedBack: number;
  /** Cancellations the worker took, one ending each renewing subscription not saved. */
  cancelled: number;
  /** Subscriptions the save offer kept: its action taken on the cancel's confirm. */
  saved: number;
  failed: string[];
}

/** Posts one kept event to the worker's lifecycle hook, signed; why it was refused, or null. */
async function post(worker: URL, body: string): Promise<string | null> {
  const answer = await postLifecycleEvent(worker, BENCH_LIFECYCLE_KEY, body);
  return answer.ok ? null : `${answer.status} ${await answer.text()}`;
}

/**
 * Whether the `count`th subscription (from 1) is among `share` of them, spread evenly and rounded
 * up: the first always is when the share is above 0, so a small run measures each kind at least
 * once (its figures then lean high, never low).
 */
function among(share: number, count: number, taken: number): boolean {
  return taken < Math.ceil(share * count);
}

/**
 * Renews every renewing subscription of the portal `life.renewals` times through the worker's
 * hook, refunds or charges back its share of them, then each leaves through its page: saved by
 * the offer, or cancelled there and then through the hook; a one-time purchase gets none of it.
 */
export async function renewEverySubscription(
  portal: PortalServer,
  worker: URL,
  life: SubscriberLife,
): Promise<MoneyEventsSent> {
  const outcome: MoneyEventsSent = {
    subscriptions: 0,
    notRenewing: 0,
    sent: 0,
    refunded: 0,
    chargedBack: 0,
    cancelled: 0,
    saved: 0,
    failed: [],
  };
  /** Sends the portal's kept `type` event of `subscription`; whether the worker took it. */
  const send = async (subscription: string, type: LifecycleEventType): Promise<boolean> => {
    const body = await portal.lifecycleBody(subscription, type);
    const refused = body === null ? 'the portal could not build it' : await post(worker, body);
    if (refused !== null) outcome.failed.push(`${type} of ${subscription}: ${refused}`);
    return refused === null;
  };
  let renewing = 0;
  const picked = { refund: 0, chargeback: 0 };
  for (const subscription of await portal.subscriptionIds()) {
    outcome.subscriptions += 1;
    let renews = true;
    for (let renewal = 0; renews && renewal < life.renewals; renewal += 1) {
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
    renewing += 1;
    if (among(life.refundShare, renewing, picked.refund)) {
      picked.refund += 1;
      if (await send(subscription, 'refund')) outcome.refunded += 1;
    } else if (among(life.chargebackShare, renewing, picked.chargeback)) {
      picked.chargeback += 1;
      if (await send(subscription, 'chargeback')) outcome.chargedBack += 1;
    }
    // Of those who leave, `saveShare` take the offer where it is made: spread as `among` spreads.
    const take = among(life.saveShare, renewing, outcome.saved);
    const left = await leaveThroughPage(worker, subscription, renewing, take).catch(
      (error: unknown) => {
        outcome.failed.push(`leaving ${subscription} through its page: ${String(error)}`);
        return null;
      },
    );
    if (left === 'saved') outcome.saved += 1;
    else if (left === 'canceled' && (await send(subscription, 'cancellation'))) {
      outcome.cancelled += 1;
    }
  }
  return outcome;
}

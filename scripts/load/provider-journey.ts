import { getPaymentSettings, signUp } from '../../islands/api/client';
import { purchase, resumePurchase } from '../../islands/payments/purchase';
import type { PurchaseOutcome, PurchaseRequest } from '../../islands/payments/purchase-types';
import { CONFIRMING_RECHECK_MS } from '../../islands/stores/payment';
import { PROVIDER_SWITCH_PATH } from '../../shared/api/payment-provider-paths';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { browserFetch, chargeApi, storedAttempt, testGatewayCard } from './journey';

/**
 * One visitor's checkout while a card provider fails on and off (docs/payments.md, "A visitor
 * already paying when the provider fails"), as the islands make it: sign up, load the checkout
 * (the payment settings route and pin the provider), take `thinkMs` to type the card, press Pay
 * through the same state machine; offered the other provider's form, take it, type the card
 * again there and pay. A visitor told 'failed' without an offer presses Pay again.
 */

const PLAN = 'monthly_7d_intro_usd';
/** How long a visitor takes to press Pay again after being told it failed. */
const PRESS_AGAIN_MS = 3_000;
/** Presses of Pay on one form before the visitor gives up. */
const PRESSES = 3;

export interface ProviderJourneyOptions {
  origin: string;
  address: string;
  /** Between loading the checkout (the provider pinned) and pressing Pay. */
  thinkMs: number;
  /** After this, the visitor gives up waiting (the page would go on asking). */
  patienceMs: number;
}

export interface ProviderJourneyReport {
  visitorId: string;
  userId: string | null;
  /** The provider the payment settings gave this checkout. */
  given: ChargeProvider | null;
  /** When Pay was first pressed (epoch ms). */
  pressedAt: number | null;
  /** When a charge call of the first attempt first failed, as the page heard it (epoch ms). */
  firstFailureAt: number | null;
  /** Every failure the page heard on the provider it was given (epoch ms). */
  failuresAt: number[];
  /** When the other provider's form was offered (epoch ms). */
  offeredAt: number | null;
  /** The provider the visitor paid with in the end, if any. */
  paidWith: ChargeProvider | null;
  told: PurchaseOutcome['kind'][];
  problem: string | null;
}

/** One visitor's browser: its fetch, its address, when it arrived. */
interface Visit {
  pageFetch: typeof fetch;
  email: string;
  startedAt: number;
  patienceMs: number;
  report: ProviderJourneyReport;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Signs up and loads the checkout: the payment settings give (and pin) its provider. */
async function openCheckout(visit: Visit): Promise<boolean> {
  const call = { fetch: visit.pageFetch };
  try {
    await visit.pageFetch('/');
    const account = await signUp(
      {
        registration_source: 'email',
        email: visit.email,
        user_uuid: visit.report.visitorId,
        landing_type: '',
      },
      call,
    );
    visit.report.userId = account.data.entity.external_user_id;
    visit.report.given = (await getPaymentSettings(call)).payment_provider ?? 'stripe';
    return true;
  } catch (error) {
    visit.report.problem = `could not reach the checkout: ${String(error)}`;
    return false;
  }
}

/** One provider's card form: its own attempts, as the page's localStorage keeps them. */
function cardForm(visit: Visit, provider: ChargeProvider) {
  const { report } = visit;
  const deps = {
    provider: testGatewayCard(visit.pageFetch),
    api: chargeApi({ fetch: visit.pageFetch }),
    sleep,
    now: Date.now,
    attempts: storedAttempt(),
    newKey: () => crypto.randomUUID(),
    email: visit.email,
    // Every failure the state machine asks again about, as the page hears it.
    report: () => {
      report.firstFailureAt ??= Date.now();
      if (provider === report.given) report.failuresAt.push(Date.now());
    },
  };
  const request: PurchaseRequest = {
    planId: PLAN,
    route: provider === 'braintree' ? 'direct' : 'polling',
    gateway: 'test',
    coupon: null,
    userData: { plan: PLAN, price: '6.99', currency: 'USD' },
    method: { kind: 'card-fields', cardholderName: 'Outage Visitor' },
  };
  return { deps, request };
}

/** Pays on one form until an outcome the visitor acts on, pressing again after a failure. */
async function payOn(visit: Visit, provider: ChargeProvider): Promise<PurchaseOutcome | null> {
  const { report } = visit;
  const { deps, request } = cardForm(visit, provider);
  let outcome: PurchaseOutcome | null = null;
  for (let press = 0; press < PRESSES; press += 1) {
    report.pressedAt ??= Date.now();
    outcome = await purchase(request, deps);
    report.told.push(outcome.kind);
    while (outcome?.kind === 'confirming' && Date.now() - visit.startedAt < visit.patienceMs) {
      await sleep(CONFIRMING_RECHECK_MS);
      outcome = await resumePurchase(deps);
      if (outcome) report.told.push(outcome.kind);
    }
    if (outcome?.kind === 'succeeded') report.paidWith = provider;
    if (outcome?.kind !== 'failed' || outcome.otherProvider) return outcome;
    await sleep(PRESS_AGAIN_MS);
  }
  return outcome;
}

/** 'Pay with another payment form': the worker moves the checkout; the provider it names. */
async function takeOffer(visit: Visit): Promise<ChargeProvider | null> {
  const moved = await visit.pageFetch(PROVIDER_SWITCH_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const answer = (await moved.json()) as { payment_provider?: ChargeProvider };
  if (moved.ok && answer.payment_provider) return answer.payment_provider;
  visit.report.problem = `the offered switch was refused: ${moved.status}`;
  return null;
}

export async function runProviderJourney(
  options: ProviderJourneyOptions,
): Promise<ProviderJourneyReport> {
  const { fetch: pageFetch, visitorId } = browserFetch(options);
  const report: ProviderJourneyReport = {
    visitorId,
    userId: null,
    given: null,
    pressedAt: null,
    firstFailureAt: null,
    failuresAt: [],
    offeredAt: null,
    paidWith: null,
    told: [],
    problem: null,
  };
  const visit: Visit = {
    pageFetch,
    email: `outage-${visitorId}@example.test`,
    startedAt: Date.now(),
    patienceMs: options.patienceMs,
    report,
  };
  if (!(await openCheckout(visit))) return report;
  await sleep(options.thinkMs);
  const outcome = await payOn(visit, report.given ?? 'stripe');
  if (outcome?.kind !== 'failed' || !outcome.otherProvider) return report;
  report.offeredAt = Date.now();
  const other = await takeOffer(visit);
  // The other provider's form: the card typed again, a new attempt.
  if (other) await payOn(visit, other);
  return report;
}

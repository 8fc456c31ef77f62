import { persistentAtom } from '@nanostores/persistent';
import { atom } from 'nanostores';
import { type ErrorTexts, readableText } from '../../shared/api/error-text';
import { DECLINE_CLASS_PARAM, type DeclineClass, declineClassOf } from '../../shared/decline-class';
import { emit } from '../analytics/emit';
import {
  cataloguePriceOf,
  gclidOf,
  PURCHASE_PIXEL_EVENT,
  purchaseTrackingPayload,
} from '../payments/purchase-tracking';
import type { PurchaseOutcome, PurchaseRequest } from '../payments/purchase-types';
import { browserOnly, ON_WORKER } from './browser-only';
import { $checkout } from './checkout';
import { showError } from './error';
import { queuePurchase } from './events';
import { keepReceipt } from './keep-receipt';
import { clearPaymentError, showPaymentError } from './payment-error';
import { PERSIST_PREFIX } from './persisted-slice';
import { $otherProviderOffer } from './provider-failover';
import { $signup } from './signup';

/**
 * Where a payment stands on this page: 'idle' takes a Pay press; 'paying' holds the button
 * until a final outcome (SPEC.md §4 Payment step 1), so a second press cannot charge twice;
 * 'confirming' is the visible wait past the polling deadline; 'unconfirmed' means the attempt
 * being confirmed vanished before its outcome was known (another tab finished it, storage was
 * cleared): it may have charged, so Pay stays held until the visitor reloads. Not persisted: a
 * reload finds an unfinished attempt through resumePurchase instead.
 */
export type PaymentPhase = 'idle' | 'paying' | 'confirming' | 'unconfirmed';

export const $paymentPhase = browserOnly(atom<PaymentPhase>('idle'), 'payment');

/**
 * The checkout (path and query) a declined visitor goes back to with Try again (SPEC.md §8
 * Payment declined). Kept across the navigation in localStorage, like the persisted slices.
 */
export const $declinedReturn = ON_WORKER
  ? atom<string>('')
  : persistentAtom<string>(`${PERSIST_PREFIX}payment:declinedReturn`, '');

/**
 * 'yes' once the visitor pressed 'Use another card' on 'Payment declined': the checkout they go
 * back to opens its card form and focuses the number (./checkout-form.ts), then clears it.
 */
export const $anotherCardAsked = ON_WORKER
  ? atom<string>('')
  : persistentAtom<string>(`${PERSIST_PREFIX}payment:anotherCard`, '');

/**
 * Which plan a purchase is for: its id, the plan data it sent as `user_data` (SPEC.md §3), and
 * the renewal consent it sent, which its receipt repeats.
 */
export type PurchasedPlan = Pick<PurchaseRequest, 'planId' | 'userData' | 'renewalConsent'> &
  Partial<Pick<PurchaseRequest, 'route'>>;

/** What the payment store needs from outside: the state machine, navigation and a clock. */
export interface PaymentStoreDeps {
  purchase(request: PurchaseRequest): Promise<PurchaseOutcome>;
  /** The attempt left unfinished (a reload mid-poll, or past the deadline), or null if none. */
  resumePurchase(): Promise<PurchaseOutcome | null>;
  /** The plan of the stored unfinished attempt, read before resuming it; null if none. */
  unfinishedPlan(): PurchasedPlan | null;
  navigate(url: string): void;
  sleep(ms: number): Promise<void>;
}

/** Where the page goes after each outcome, and the texts a failure may need. */
export interface PaymentPage {
  /** The next screen of the flow (query kept): the upsell or success. */
  next: string;
  /** The 'Payment declined' screen, query kept. */
  declined: string;
  /** This page's path and query, for Try again. */
  here: string;
  texts: Partial<ErrorTexts>;
  /** From the screen props: outside production the purchase pixel event gets `_test` (SPEC.md §9). */
  production: boolean;
  /**
   * A checkout's main purchase: its success is confirmed in the receipt dialog (SPEC.md §3
   * showSuccessPopup), whose Continue goes on to `next`, before anything else is offered.
   */
  confirm?: boolean;
}

/** Between two checks of a payment still being confirmed past the state machine's deadline. */
export const CONFIRMING_RECHECK_MS = 3000;

const PAYMENT_ERROR: PurchaseOutcome = { kind: 'failed', text: { text: 'Payment error' } };

async function outcomeOrFallback(
  run: () => Promise<PurchaseOutcome | null>,
): Promise<PurchaseOutcome | null> {
  try {
    return await run();
  } catch (error) {
    // The state machine answers every failure as an outcome; anything thrown is our bug, and the
    // visitor still gets SPEC.md §8's fallback instead of a button that never comes back.
    console.error('[geofunnel] purchase threw', error);
    return PAYMENT_ERROR;
  }
}

/**
 * Acts on an outcome (SPEC.md §4 Payment steps 5–7): success records isSuccess and the
 * subscription id and moves on; a decline opens 'Payment declined'; a failure shows its §8 text
 * and frees the form; 'confirming' keeps waiting for the same attempt, never posting again.
 */
async function settle(
  first: PurchaseOutcome | null,
  plan: PurchasedPlan | null,
  page: PaymentPage,
  deps: PaymentStoreDeps,
): Promise<void> {
  let outcome = first;
  let confirmed = false;
  while (outcome?.kind === 'confirming') {
    confirmed = true;
    $paymentPhase.set('confirming');
    await deps.sleep(CONFIRMING_RECHECK_MS);
    outcome = await outcomeOrFallback(() => deps.resumePurchase());
  }
  if (outcome === null && confirmed) {
    // The POST went out and no outcome came back: freeing Pay here could charge twice.
    $paymentPhase.set('unconfirmed');
    showError(readableText({ key: 'payment_may_have_gone_through' }, page.texts));
    return;
  }
  if (outcome === null) {
    $paymentPhase.set('idle');
    return;
  }
  switch (outcome.kind) {
    case 'succeeded':
      $checkout.set({ ...$checkout.get(), isSuccess: true, id: outcome.subscriptionId });
      if (plan) track(outcome, plan, page);
      // The button stays held while the receipt shows and the next page loads: this purchase is
      // over.
      if (page.confirm && plan) confirmPurchase(outcome, plan);
      else {
        // An upsell: its receipt joins the main one, for success's order summary.
        if (plan) keepReceipt(outcome, plan, 'added');
        deps.navigate(page.next);
      }
      return;
    case 'declined':
      // The class lets the experiments' decline guardrail tell a variant that raises 3-D Secure
      // failures from one that loses cards for lack of funds (docs/experiments.md).
      emit('subs_purchase_failed', {
        plan: plan?.planId,
        decline_code: outcome.declineCode,
        decline_class: declineCauseOf(outcome),
      });
      $declinedReturn.set(page.here);
      deps.navigate(declinedPageOf(page.declined, outcome));
      return;
    case 'failed':
      emit('subs_purchase_failed', { plan: plan?.planId, error: readableText(outcome.text, {}) });
      showPaymentError(readableText(outcome.text, page.texts));
      // The provider kept failing and nothing was charged: its form gives way to the other's.
      $otherProviderOffer.set(outcome.otherProvider === true);
      $paymentPhase.set('idle');
      return;
  }
}

/**
 * The 'Payment declined' page naming the decline's class in its query, so its advice is drawn by
 * the worker: it stays on a reload and needs no script (screens/after/PaymentDeclinedScreen.tsx).
 */
function declinedPageOf(
  declined: string,
  outcome: Extract<PurchaseOutcome, { kind: 'declined' }>,
): string {
  const url = new URL(declined, 'http://page.invalid');
  url.searchParams.set(DECLINE_CLASS_PARAM, declineCauseOf(outcome));
  return `${url.pathname}${url.search}`;
}

function declineCauseOf(outcome: Extract<PurchaseOutcome, { kind: 'declined' }>): DeclineClass {
  return declineClassOf({
    declineCode: outcome.declineCode,
    processorResponse: outcome.processorResponse,
  });
}

/** Keeps the receipt and opens its dialog (islands/PaymentReceipt.tsx), SPEC.md §4's popup event. */
function confirmPurchase(
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>,
  plan: PurchasedPlan,
): void {
  keepReceipt(outcome, plan, 'main');
  // The upsells charge the method on file where it was kept: with the provider that charged
  // this purchase (the polling route is Stripe's, the direct call Braintree's, SPEC.md §7), not
  // the one the payment settings named before a forced or switched checkout.
  if (plan.route) {
    const charged = plan.route === 'direct' ? 'braintree' : 'stripe';
    $signup.set({ ...$signup.get(), cardProvider: charged });
  }
  $checkout.set({ ...$checkout.get(), showSuccessPopup: true });
  emit('payment_successful_popup', { plan: plan.planId });
}

/** SPEC.md §3 Purchase tracking payload, handed to analytics through $events (see events.ts). */
function track(
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>,
  plan: PurchasedPlan,
  page: PaymentPage,
): void {
  const catalogue = cataloguePriceOf(plan.userData);
  queuePurchase(
    purchaseTrackingPayload({
      outcome,
      planId: plan.planId,
      cataloguePrice: catalogue.price,
      currency: catalogue.currency,
      gclid: gclidOf(page.here),
      pixelEvent: PURCHASE_PIXEL_EVENT,
      production: page.production,
    }),
  );
}

/**
 * A press of Pay (or an upsell's one click). Only one purchase runs at a time: a press while one
 * is under way does nothing, so five fast clicks make one attempt.
 */
export async function pay(
  request: PurchaseRequest,
  page: PaymentPage,
  deps: PaymentStoreDeps,
): Promise<void> {
  if ($paymentPhase.get() !== 'idle') return;
  $paymentPhase.set('paying');
  // Pressed again: the last attempt's error, and an offer made with it, give way to this one's.
  clearPaymentError();
  $otherProviderOffer.set(false);
  emit('subs_purchase_started', { plan: request.planId });
  await settle(await outcomeOrFallback(() => deps.purchase(request)), request, page, deps);
}

/** On page load: continues an attempt a reload interrupted mid-poll, if there is one. */
export async function resumePayment(page: PaymentPage, deps: PaymentStoreDeps): Promise<void> {
  if ($paymentPhase.get() !== 'idle') return;
  // Read first: the state machine forgets the attempt once it is final. With none stored, every
  // checkout load would otherwise hold Pay for a moment and fetch the state machine's chunk.
  const plan = deps.unfinishedPlan();
  if (!plan) return;
  $paymentPhase.set('paying');
  await settle(await outcomeOrFallback(() => deps.resumePurchase()), plan, page, deps);
}

import type { SubscriptionRequest } from '../../shared/api/contract';
import { ApiErrorBody } from '../../shared/api/contract';
import { failureLeftNoAnswer } from '../../shared/api/error-text';
import { ApiFailure } from '../../shared/api/request';
import { idempotencyKeyOf, type PurchaseAttempt } from './attempt';
import {
  chargedOutcome,
  failedOutcome,
  isFinal,
  providerRefusalOutcome,
  refusedResultOutcome,
} from './outcomes';
import { type PollingResult, pollUntilFinal } from './poll-result';
import type { PurchaseDeps } from './purchase-deps';
import type { PurchaseOutcome } from './purchase-types';

/**
 * Carries a stored attempt to its outcome (SPEC.md §4 Payment steps 3–7): its subscription POST
 * (unless the portal already named a polling id), the result, 3-D Secure when asked for, and
 * the repeated call after it. The attempt is saved after every step, so a reload resumes it; it
 * is cleared on a final outcome and on a failure that proves nothing was charged.
 */
export function chargeAttempt(
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  return attempt.route === 'polling' ? pollingCharge(attempt, deps) : directCharge(attempt, deps);
}

/** SPEC.md §3 Request payload. */
function subscriptionBody(attempt: PurchaseAttempt): SubscriptionRequest {
  return {
    gateway: attempt.gateway,
    payment_method_nonce: attempt.nonce,
    coupon: attempt.coupon,
    payment_intent_id: attempt.intentId,
    user_data: attempt.userData,
  };
}

function save(attempt: PurchaseAttempt, deps: PurchaseDeps): PurchaseAttempt {
  deps.attempts.save(attempt);
  return attempt;
}

function settled(outcome: PurchaseOutcome, deps: PurchaseDeps): PurchaseOutcome {
  if (isFinal(outcome)) deps.attempts.clear();
  return outcome;
}

/**
 * A call failed. Without an answer the charge may have happened: the attempt stays, so the next
 * click repeats the same key (the portal answers the first charge) instead of charging again.
 */
function callFailed(error: unknown, deps: PurchaseDeps): PurchaseOutcome {
  deps.report?.(error);
  const outcome = failedOutcome(error);
  return failureLeftNoAnswer(error) ? outcome : settled(outcome, deps);
}

function providerRefused(error: unknown, deps: PurchaseDeps): PurchaseOutcome {
  deps.report?.(error);
  return settled(providerRefusalOutcome(error), deps);
}

// --- The card provider's route: POST, then poll (Stripe, the test gateway) -----------------

async function pollingCharge(
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  let current = attempt;
  if (current.pollingId === null) {
    try {
      const answer = await deps.api.startPollingSubscription(
        current.planId,
        subscriptionBody(current),
        idempotencyKeyOf(current),
      );
      current = save({ ...current, pollingId: answer.data.polling_result_id }, deps);
    } catch (error) {
      return callFailed(error, deps);
    }
  }
  const pollingId = current.pollingId as string;
  const end = await pollUntilFinal(pollingId, {
    getPollingResult: (id) => deps.api.getPollingResult(id),
    sleep: (ms) => deps.sleep(ms),
    now: () => deps.now(),
  });
  if (end.kind === 'pending') return { kind: 'confirming', pollingId };
  if (end.kind === 'error') return callFailed(end.error, deps);
  return settleResult(end.result, current, deps);
}

async function settleResult(
  result: PollingResult,
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  // SPEC.md §8: 'Unknown error. Please try again' when polling returned nothing.
  if (result === null) return settled(chargedOutcome(null), deps);
  if (result.status === 'succeeded') return settled(chargedOutcome(result), deps);
  const secret = result.payment_intent_secret;
  // One challenge per attempt: asked again after passing one, the charge is refused.
  if (result.status === 'requires_action' && secret && attempt.step === 'first') {
    return authenticate(secret, attempt, deps);
  }
  return settled(refusedResultOutcome(result), deps);
}

/**
 * SPEC.md §4 Payment step 4: the provider runs the challenge, then the subscription call is
 * repeated with the intent id, under the attempt's derived key (attempt.ts idempotencyKeyOf).
 */
async function authenticate(
  secret: string,
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  let intentId: string;
  try {
    intentId = await deps.provider.confirmCardPayment(secret);
  } catch (error) {
    return providerRefused(error, deps);
  }
  const authenticated = save(
    { ...attempt, step: 'authenticated', intentId, pollingId: null },
    deps,
  );
  return pollingCharge(authenticated, deps);
}

// --- The alternate provider's route: one POST (Braintree) ----------------------------------

/** The nonce and amount of SPEC.md §4's 'User action required' error, when it is one. */
function verificationAsked(error: unknown): { nonce: string; amount: string } | null {
  if (!(error instanceof ApiFailure)) return null;
  const asked = error.messages.some((message) => /user action required/i.test(message));
  const body = ApiErrorBody.safeParse(error.body);
  const data = body.success ? body.data.data : undefined;
  return asked && data
    ? { nonce: data.payment_method_nonce, amount: String(data.validation_amount) }
    : null;
}

async function directCharge(
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  try {
    const answer = await deps.api.createDirectSubscription(
      attempt.planId,
      subscriptionBody(attempt),
      idempotencyKeyOf(attempt),
    );
    return settled(chargedOutcome(answer.data), deps);
  } catch (error) {
    const asked = verificationAsked(error);
    const verifyCard = deps.provider.verifyCard?.bind(deps.provider);
    if (!asked || !verifyCard || attempt.step !== 'first') return callFailed(error, deps);
    return verify(asked, verifyCard, attempt, deps);
  }
}

/**
 * SPEC.md §4 Alternate provider with 3-D Secure: verify the nonce for the amount, then retry with
 * the verified nonce under the derived key; a verify error goes to the error path.
 */
async function verify(
  asked: { nonce: string; amount: string },
  verifyCard: NonNullable<PurchaseDeps['provider']['verifyCard']>,
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  let nonce: string;
  try {
    // The BIN comes from the stored attempt, not the provider: after a reload mid-attempt this
    // page never tokenized the card.
    nonce = await verifyCard({ ...asked, email: deps.email, bin: attempt.bin });
  } catch (error) {
    return providerRefused(error, deps);
  }
  return directCharge(save({ ...attempt, step: 'authenticated', nonce }, deps), deps);
}

import type { SubscriptionRequest } from '../../shared/api/contract';
import { ApiFailure } from '../../shared/api/request';
import { idempotencyKeyOf, type PurchaseAttempt } from './attempt';
import {
  chargedOutcome,
  failedOutcome,
  isFinal,
  providerRefusalOutcome,
  refusedResultOutcome,
} from './outcomes';
import { askUntilAnswered, POLLING, type PollingResult } from './poll-result';
import type { PurchaseDeps } from './purchase-deps';
import type { PurchaseOutcome } from './purchase-types';

/**
 * Carries a stored attempt to its outcome (SPEC.md §4 Payment steps 3–7): its subscription POST
 * (unless the portal already named a polling id), the result, 3-D Secure when asked for, and
 * the repeated call after it. The attempt is saved after every step, so a reload resumes it.
 *
 * At most one charge per purchase: the attempt ends only with a final answer about it
 * (succeeded, declined, failed, or a refusal for good: poll-result.ts refusedForGood). A call that
 * says nothing (no answer, a 5xx, garbage, a worker error) is asked again under the same key or
 * polling id until the deadline, and then the outcome is 'confirming', never 'failed': the visitor
 * is told the payment is being confirmed, and no later press can start a second charge beside it.
 *
 * `fresh`: this run created the attempt, so its first POST cannot have been sent before.
 */
export function chargeAttempt(
  attempt: PurchaseAttempt,
  deps: PurchaseDeps,
  fresh = false,
): Promise<PurchaseOutcome> {
  const run: ChargeRun = { deps, deadline: deps.now() + POLLING.deadlineMs };
  return attempt.route === 'polling'
    ? pollingCharge(attempt, run, fresh)
    : directCharge(attempt, run, fresh);
}

/** One run of the state machine over an attempt: its dependencies and its one deadline. */
interface ChargeRun {
  deps: PurchaseDeps;
  /** Epoch ms after which the run answers 'confirming' instead of asking again. */
  deadline: number;
}

/** SPEC.md §3 Request payload. */
function subscriptionBody(attempt: PurchaseAttempt): SubscriptionRequest {
  return {
    gateway: attempt.gateway,
    payment_method_nonce: attempt.nonce,
    coupon: attempt.coupon,
    payment_intent_id: attempt.intentId,
    user_data: attempt.userData,
    ...(attempt.renewalConsent ? { renewal_consent: attempt.renewalConsent } : {}),
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

/** The product API (or the worker, forwarding nothing) refused the call for good. */
function refused(error: unknown, deps: PurchaseDeps): PurchaseOutcome {
  deps.report?.(error);
  return settled(failedOutcome(error), deps);
}

function providerRefused(error: unknown, deps: PurchaseDeps): PurchaseOutcome {
  deps.report?.(error);
  return settled(providerRefusalOutcome(error), deps);
}

function askDeps(deps: PurchaseDeps) {
  return { sleep: deps.sleep, now: deps.now, report: deps.report };
}

// --- The card provider's route: POST, then poll (Stripe, the test gateway) -----------------

async function pollingCharge(
  attempt: PurchaseAttempt,
  run: ChargeRun,
  fresh: boolean,
): Promise<PurchaseOutcome> {
  const { deps } = run;
  let current = attempt;
  if (current.pollingId === null) {
    const started = await askUntilAnswered(
      () =>
        deps.api.startPollingSubscription(
          current.planId,
          subscriptionBody(current),
          idempotencyKeyOf(current),
        ),
      askDeps(deps),
      run.deadline,
      !fresh,
    );
    if (started.kind === 'refused') return refused(started.error, deps);
    if (started.kind === 'unanswered') return { kind: 'confirming', pollingId: null };
    current = save({ ...current, pollingId: started.value.data.polling_result_id }, deps);
  }
  const pollingId = current.pollingId as string;
  const result = await askUntilAnswered(
    async () => {
      const answer = await deps.api.getPollingResult(pollingId);
      // SPEC.md §7: repeated while the HTTP status is 202.
      return answer.status === 202 ? undefined : { result: answer.data.data.result_data };
    },
    askDeps(deps),
    run.deadline,
    true,
  );
  if (result.kind === 'refused') return refused(result.error, deps);
  if (result.kind === 'unanswered') return { kind: 'confirming', pollingId };
  return settleResult(result.value.result, current, run);
}

async function settleResult(
  result: PollingResult,
  attempt: PurchaseAttempt,
  run: ChargeRun,
): Promise<PurchaseOutcome> {
  const { deps } = run;
  // SPEC.md §8: 'Unknown error. Please try again' when polling returned nothing.
  if (result === null) return settled(chargedOutcome(null), deps);
  if (result.status === 'succeeded') return settled(chargedOutcome(result), deps);
  const secret = result.payment_intent_secret;
  // One challenge per attempt: asked again after passing one, the charge is refused.
  if (result.status === 'requires_action' && secret && attempt.step === 'first') {
    return authenticate(secret, attempt, run);
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
  run: ChargeRun,
): Promise<PurchaseOutcome> {
  let intentId: string;
  try {
    intentId = await run.deps.provider.confirmCardPayment(secret);
  } catch (error) {
    return providerRefused(error, run.deps);
  }
  const authenticated = save(
    { ...attempt, step: 'authenticated', intentId, pollingId: null },
    run.deps,
  );
  // The challenge took the visitor's time, not the portal's: the repeated call gets a full wait.
  return pollingCharge(
    authenticated,
    { ...run, deadline: run.deps.now() + POLLING.deadlineMs },
    true,
  );
}

// --- The alternate provider's route: one POST (Braintree) ----------------------------------

/** The nonce and amount of SPEC.md §4's 'User action required' error, when it is one. */
function verificationAsked(error: unknown): { nonce: string; amount: string } | null {
  if (!(error instanceof ApiFailure)) return null;
  const asked = error.messages.some((message) => /user action required/i.test(message));
  const data = error.errorBody?.data;
  return asked && data
    ? { nonce: data.payment_method_nonce, amount: String(data.validation_amount) }
    : null;
}

async function directCharge(
  attempt: PurchaseAttempt,
  run: ChargeRun,
  fresh: boolean,
): Promise<PurchaseOutcome> {
  const { deps } = run;
  const charged = await askUntilAnswered(
    () =>
      deps.api.createDirectSubscription(
        attempt.planId,
        subscriptionBody(attempt),
        idempotencyKeyOf(attempt),
      ),
    askDeps(deps),
    run.deadline,
    !fresh,
  );
  if (charged.kind === 'answered') return settled(chargedOutcome(charged.value.data), deps);
  if (charged.kind === 'unanswered') return { kind: 'confirming', pollingId: null };
  const asked = verificationAsked(charged.error);
  const verifyCard = deps.provider.verifyCard?.bind(deps.provider);
  if (!asked || !verifyCard || attempt.step !== 'first') return refused(charged.error, deps);
  return verify(asked, verifyCard, attempt, run);
}

/**
 * SPEC.md §4 Alternate provider with 3-D Secure: verify the nonce for the amount, then retry with
 * the verified nonce under the derived key; a verify error goes to the error path.
 */
async function verify(
  asked: { nonce: string; amount: string },
  verifyCard: NonNullable<PurchaseDeps['provider']['verifyCard']>,
  attempt: PurchaseAttempt,
  run: ChargeRun,
): Promise<PurchaseOutcome> {
  const { deps } = run;
  let nonce: string;
  try {
    // The BIN comes from the stored attempt, not the provider: after a reload mid-attempt this
    // page never tokenized the card.
    nonce = await verifyCard({ ...asked, email: deps.email, bin: attempt.bin });
  } catch (error) {
    return providerRefused(error, deps);
  }
  const verified = save({ ...attempt, step: 'authenticated', nonce }, deps);
  return directCharge(verified, { ...run, deadline: deps.now() + POLLING.deadlineMs }, true);
}

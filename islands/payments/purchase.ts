import { paymentErrorText } from '../../shared/api/error-text';
import { isStale, newAttempt, type PurchaseAttempt } from './attempt';
import { chargeAttempt } from './charge';
import { failedOutcome } from './outcomes';
import type { PurchaseDeps } from './purchase-deps';
import type { PurchaseOutcome, PurchaseRequest } from './purchase-types';

export type { PaymentApi, PurchaseDeps } from './purchase-deps';

/**
 * The payment state machine (SPEC.md §4 Payment): a pure module, every effect injected. Two entry
 * points: `purchase` when the visitor pays, `resumePurchase` when a page opens (or the
 * 'confirming' state asks again). Neither rejects: every failure is an outcome with its §8 text.
 *
 * One purchase at a time (no double charge, whatever they click): while a run is in
 * flight on an attempt store, every further `purchase` or `resumePurchase` on it joins that run
 * and gets its outcome; nothing is posted twice.
 */
const inFlight = new WeakMap<PurchaseDeps['attempts'], Promise<PurchaseOutcome>>();

function exclusive(
  deps: PurchaseDeps,
  run: () => Promise<PurchaseOutcome>,
): Promise<PurchaseOutcome> {
  const running = inFlight.get(deps.attempts);
  if (running) return running;
  const started = neverRejects(run, deps).finally(() => inFlight.delete(deps.attempts));
  inFlight.set(deps.attempts, started);
  return started;
}

/**
 * A bug or a storage failure still ends the run; the attempt is kept, as it may have charged, and
 * the visitor is told the payment is being confirmed rather than that it failed.
 */
async function neverRejects(
  run: () => Promise<PurchaseOutcome>,
  deps: PurchaseDeps,
): Promise<PurchaseOutcome> {
  try {
    return await run();
  } catch (error) {
    deps.report?.(error);
    return deps.attempts.load() === null
      ? { kind: 'failed', text: paymentErrorText(error) }
      : { kind: 'confirming', pollingId: null };
  }
}

/** The stored attempt, forgetting one too old to resume. */
function storedAttempt(deps: PurchaseDeps): PurchaseAttempt | null {
  const stored = deps.attempts.load();
  if (stored && isStale(stored, deps.now())) {
    deps.attempts.clear();
    return null;
  }
  return stored;
}

/**
 * Pays for `request` (SPEC.md §4 Payment). The caller shows loading and keeps the pay button
 * disabled until this resolves, with any outcome: 'confirming' included, whose screen goes on
 * with `resumePurchase`.
 *
 * A stored attempt may have charged (it is stored right before its first POST), so it is followed
 * to its end first, under its own key: a new press never starts a second charge beside it.
 * Only with nothing stored does a press make a new attempt with a new key.
 */
export function purchase(request: PurchaseRequest, deps: PurchaseDeps): Promise<PurchaseOutcome> {
  return exclusive(deps, async () => {
    const stored = storedAttempt(deps);
    if (stored) return chargeAttempt(stored, deps);
    let method: PaymentMethodOf;
    try {
      method = await paymentMethodOf(request, deps);
    } catch (error) {
      // SPEC.md §8: a card payment-method creation error shows its message. Nothing was sent.
      deps.report?.(error);
      return failedOutcome(error);
    }
    const attempt = newAttempt(request, { key: deps.newKey(), ...method, now: deps.now() });
    deps.attempts.save(attempt);
    return chargeAttempt(attempt, deps, true);
  });
}

/** The nonce a request pays with (none for the method on file), and its card's BIN if known. */
type PaymentMethodOf = { nonce: string | null; bin: string | null };

/** SPEC.md §4 Payment step 2: a payment method from the card fields, a supplied nonce, or none (on file). */
async function paymentMethodOf(
  request: PurchaseRequest,
  deps: PurchaseDeps,
): Promise<PaymentMethodOf> {
  const method = request.method;
  if (method.kind === 'card-fields') {
    return deps.provider.createPaymentMethod({ cardholderName: method.cardholderName });
  }
  // A wallet's or PayPal's nonce names no BIN: their payments are not verified with verifyCard.
  return { nonce: method.kind === 'nonce' ? method.nonce : null, bin: null };
}

/**
 * Carries on the stored attempt, if there is one (after a reload, or when the 'confirming' state
 * asks again): reads the same polling id, or repeats the attempt's POST under its own key; never a
 * new charge. Resolves null when there is nothing to resume.
 */
export function resumePurchase(deps: PurchaseDeps): Promise<PurchaseOutcome | null> {
  const running = inFlight.get(deps.attempts);
  if (running) return running;
  const stored = storedAttempt(deps);
  return stored ? exclusive(deps, () => chargeAttempt(stored, deps)) : Promise.resolve(null);
}

import type { ChargeReading } from '../../shared/charge-outcome';
import type { DeclineClass } from '../../shared/decline-class';
import type { ApiRefusal } from '../http/api-json';

/**
 * The one charge pipeline (docs/payments.md "One charge pipeline"): every way money moves from a
 * card (the checkout's purchase and its upsells, paying what a failed renewal left due, a card
 * made the subscription's) passes the same steps in the same order. A new way to charge is a new
 * caller of runCharge with its own adapters of these steps, never a copy of them.
 *
 * Before the product API is asked, in order, each may refuse:
 * 1. `limits`: the card-testing counters (worker/rate-limits/): per payer, address and card.
 * 2. `provider`: the card provider's health and the visitor's pin (worker/provider-health/). It
 *    only reads, so it comes before anything that keeps an attempt waiting for an answer.
 * 3. `ledger`: the attempt ledger of the payment (worker/purchase-ledger/): no attempt after one
 *    that charged, none while one may have.
 * 4. `governor`: the card networks' retry rules for the card (worker/retry-governor/).
 * Then the product API is asked once (`send`), and after its answer, in order:
 * 5. `classify`: what the answer came to (shared/charge-outcome.ts, shared/decline-class.ts).
 * Each admitting step then settles what it kept (a decline counted, the provider's health, the
 * attempt's outcome in the ledger and the governor), and last:
 * 6. `log`: the charge's log line.
 * 7. `record`: what the payment leaves behind (the verified purchase, the paid due).
 */

export const CHARGE_STEPS = [
  'limits',
  'provider',
  'ledger',
  'governor',
  'classify',
  'log',
  'record',
] as const;
export type ChargeStepName = (typeof CHARGE_STEPS)[number];

/** The ways money moves from a card, as the log and the tests name them. */
export type ChargeWay = 'purchase' | 'upsell' | 'pay_due' | 'card_update';

/** What an answer came to, as every step after the product API reads it. */
export interface ChargeResult {
  /**
   * The charge outcome's reading (shared/charge-outcome.ts), or null when the answer says
   * nothing final yet (a polling start, a result still pending).
   */
  reading: ChargeReading | null;
  /** The provider's decline code and its class for the visitor, on a decline. */
  declineCode: string | null;
  declineClass: DeclineClass | null;
  /** The network's own codes of a decline, for the retry governor. */
  responseCode: string | null;
  adviceCode: string | null;
  /** A 3-D Secure challenge was asked for. */
  challenged: boolean;
  /** The polling id the answer named: the charge's result is asked by it. */
  pollingId: string | null;
}

/** One step of the pipeline for one charge: what it checks before, what it keeps after. */
export interface ChargeStep<Answer> {
  /** Before the product API: null lets the charge on, a refusal ends it there. */
  admit?(): Promise<ApiRefusal | null>;
  /** A later step refused: undo what `admit` kept (an attempt counted as pending). */
  withdraw?(): Promise<void>;
  /** After the answer: what this step keeps of it. Failures are the step's to log. */
  settle?(answer: Answer, result: ChargeResult): Promise<void>;
}

/** A charge's steps: every step but `classify`, which is a reading of the answer. */
export type ChargeSteps<Answer> = Record<Exclude<ChargeStepName, 'classify'>, ChargeStep<Answer>>;

/** Told each step as it runs, with its phase: the tests' spy, never needed in production. */
export type ChargeStepWatch = (step: ChargeStepName | 'send', phase: ChargePhase) => void;
export type ChargePhase = 'admit' | 'send' | 'settle';

/** The steps asked before the product API, in order. */
const ADMITTING = ['limits', 'provider', 'ledger', 'governor'] as const;
/** The steps told the answer after `classify`, in order. */
const SETTLING = ['limits', 'provider', 'ledger', 'governor', 'log', 'record'] as const;

export type ChargeRun<Sent> =
  | { ok: false; refusal: ApiRefusal; step: ChargeStepName }
  | { ok: true; answer: Sent; result: ChargeResult };

/**
 * One charge through the pipeline: the admitting steps in order (a refusal withdraws what the
 * steps before it kept, and nothing is sent), the product API asked once, then the answer
 * classified and settled by every step in order.
 */
export async function runCharge<Answer, Sent extends Answer>(
  steps: ChargeSteps<Answer>,
  classify: (answer: Answer) => ChargeResult,
  send: () => Promise<Sent>,
  watch?: ChargeStepWatch,
): Promise<ChargeRun<Sent>> {
  const admitted: ChargeStep<Answer>[] = [];
  for (const name of ADMITTING) {
    watch?.(name, 'admit');
    const step = steps[name];
    const refusal = step.admit ? await step.admit() : null;
    if (refusal) {
      for (const earlier of admitted.reverse()) await earlier.withdraw?.();
      return { ok: false, refusal, step: name };
    }
    admitted.push(step);
  }
  watch?.('send', 'send');
  const answer = await send();
  const result = await settleCharge(steps, classify, answer, watch);
  return { ok: true, answer, result };
}

/**
 * A later answer about a charge already sent (a polling result): classified and settled by every
 * step, as runCharge does after its own answer.
 */
export async function settleCharge<Answer>(
  steps: ChargeSteps<Answer>,
  classify: (answer: Answer) => ChargeResult,
  answer: Answer,
  watch?: ChargeStepWatch,
): Promise<ChargeResult> {
  watch?.('classify', 'settle');
  const result = classify(answer);
  for (const name of SETTLING) {
    watch?.(name, 'settle');
    await steps[name].settle?.(answer, result);
  }
  return result;
}

/** A result that says nothing of a charge: the answer is no charge's (yet). */
export const NO_CHARGE_RESULT: ChargeResult = {
  reading: null,
  declineCode: null,
  declineClass: null,
  responseCode: null,
  adviceCode: null,
  challenged: false,
  pollingId: null,
};

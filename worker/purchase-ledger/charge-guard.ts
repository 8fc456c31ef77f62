import { DurableObject } from 'cloudflare:workers';
import type { CardNetwork } from '../../shared/card-network';
import type { ChargeProvider } from '../../shared/charge-outcome';
import { describeError, logError, logWarning } from '../../shared/log';
import {
  type ChargeResult,
  type ChargeStep,
  NO_CHARGE_RESULT,
} from '../charge-pipeline/charge-pipeline';
import type { Bindings } from '../env';
import { type ApiRefusal, refusal } from '../http/api-json';
import { durableCardAttempts } from '../retry-governor/card-attempts';
import type { GovernorDecision, Initiator } from '../retry-governor/governor';
import { cardOutcomeOf } from './card-outcome';
import {
  type AnswerNews,
  type AttemptNews,
  admitToLedger,
  governorCardKey,
  type LedgerAdmission,
  type LedgerAttempt,
  type LedgerRefusal,
  type ProposedCharge,
  type PurchaseLedger,
  settleInLedger,
  withdrawFromLedger,
} from './ledger';

/**
 * The attempt ledger's and the retry governor's steps of the charge pipeline
 * (worker/charge-pipeline/charge-pipeline.ts, docs/payments.md "One charge per purchase"):
 * before a charge is sent, the payment's ledger and then the governor for the card are asked;
 * after it, what the answer said is recorded in both. Either store out of reach refuses the
 * charge (fail closed): a charge the ledger cannot see could be a second one, and one the
 * governor cannot count could break the networks' rules.
 */

/** Where an attempt is kept: its payment's ledger object, its id, its card's governor key. */
export interface LedgerRef {
  purchase: string;
  attempt: string;
  card: string;
}

/** The charge the two steps guard. */
export interface GuardedCharge {
  env: Pick<Bindings, 'PURCHASE_ATTEMPTS' | 'CARD_ATTEMPTS'>;
  requestId: string;
  /** The log's name of the call (a §7 call, or a subscriber page's). */
  call: string;
  /** The payment's ledger object (./ledger.ts purchaseKey). */
  purchase: string;
  /** Who pays: the signed-in account, else the visitor; or the subscription a link names. */
  payer: string;
  attempt: string;
  /** The card's fingerprint, read on the server (worker/checkout/charge-call.ts), or null. */
  fingerprint: string | null;
  /** The card is a test-mode one, counted per payer (./ledger.ts governorCardKey). */
  testCard?: boolean;
  provider: ChargeProvider;
  network: CardNetwork;
  initiator: Initiator;
  /**
   * Asks the product API what an unknown attempt with a polling id came to, and settles it: an
   * attempt that may have charged is reconciled before another is sent. Absent: none is asked.
   */
  reconcile?: (ref: LedgerRef, pollingId: string) => Promise<void>;
}

/** The ledger's and the governor's reasons, as the worker's refusal codes (shared/api). */
const LEDGER_CODES = {
  purchase_charged: 'purchase_charged',
  purchase_confirming: 'purchase_confirming',
  card_stopped: 'card_stopped',
  provider_not_allowed: 'provider_not_allowed',
  purchase_attempts_spent: 'payment_rate_limited',
} as const satisfies Record<LedgerRefusal, string>;

function ledgerObject(env: GuardedCharge['env'], purchase: string) {
  const namespace = env.PURCHASE_ATTEMPTS;
  return namespace.get(namespace.idFromName(purchase));
}

function governorRefusal(decision: Extract<GovernorDecision, { allowed: false }>): ApiRefusal {
  if (decision.until === null) return refusal('card_stopped');
  const seconds = Math.max(1, Math.ceil((decision.until - Date.now()) / 1000));
  return { ...refusal('card_retry_limit'), retryAfterSeconds: seconds };
}

/** What the ledger and the governor keep of a classified answer. */
function newsOf(result: ChargeResult): AnswerNews {
  return {
    reading: result.reading,
    challenged: result.challenged,
    pollingId: result.pollingId,
    codes: { responseCode: result.responseCode, adviceCode: result.adviceCode },
  };
}

/** The two steps of one charge, and what the ledger answered for the product API. */
export interface GuardSteps {
  ledger: ChargeStep<unknown>;
  governor: ChargeStep<unknown>;
  ref: LedgerRef;
  /** The id the product API de-duplicates the payment on (`purchase_id`), once admitted. */
  purchaseId(): string | null;
}

/**
 * The ledger's step (no attempt after one that charged, none while one may have, the cascade rule
 * for the card; an unknown attempt with a polling id reconciled once first) and the governor's
 * (the networks' counts for the card; not asked again for a resend of an admitted attempt). A
 * refusal is logged (`charge_refused`, with its reason or rule) and is the payer's answer.
 */
export async function guardSteps(charge: GuardedCharge): Promise<GuardSteps> {
  const ref: LedgerRef = {
    purchase: charge.purchase,
    attempt: charge.attempt,
    card: await governorCardKey(charge.payer, charge.fingerprint, charge.testCard),
  };
  const log = { id: charge.requestId, call: charge.call, attempt: charge.attempt };
  const proposed = {
    id: charge.attempt,
    provider: charge.provider,
    card: charge.fingerprint,
    at: Date.now(),
  };
  let purchaseId: string | null = null;
  let resend = false;
  const unreachable = (error: unknown): ApiRefusal => {
    logError('charge_ledger_failed', { ...log, detail: describeError(error) });
    return refusal('payment_guard_unavailable');
  };
  const settled = settledSteps(charge.env, ref, log);
  const ledger: ChargeStep<unknown> = {
    async admit() {
      try {
        const object = ledgerObject(charge.env, ref.purchase);
        let admission = await object.admit(proposed);
        const unsettled = admission.allowed ? null : admission.unsettled;
        if (unsettled?.pollingId && charge.reconcile) {
          const card = await governorCardKey(charge.payer, unsettled.card, charge.testCard);
          await charge.reconcile({ ...ref, attempt: unsettled.id, card }, unsettled.pollingId);
          admission = await object.admit(proposed);
        }
        if (!admission.allowed) {
          logWarning('charge_refused', { ...log, reason: admission.reason });
          return refusal(LEDGER_CODES[admission.reason]);
        }
        purchaseId = admission.purchaseId;
        resend = admission.resend;
        return null;
      } catch (error) {
        return unreachable(error);
      }
    },
    async withdraw() {
      try {
        await ledgerObject(charge.env, ref.purchase).withdraw(ref.attempt);
      } catch (error) {
        logError('charge_ledger_failed', { ...log, detail: describeError(error) });
      }
    },
    settle: settled.ledger.settle,
  };
  const governor: ChargeStep<unknown> = {
    async admit() {
      if (resend) return null;
      try {
        const decision = await durableCardAttempts(charge.env.CARD_ATTEMPTS).admit(
          ref.card,
          ref.attempt,
          {
            at: Date.now(),
            network: charge.network,
            initiator: charge.initiator,
            provider: charge.provider,
          },
        );
        if (decision.allowed) return null;
        logWarning('charge_refused', { ...log, rule: decision.rule, purchase: purchaseId });
        return governorRefusal(decision);
      } catch (error) {
        return unreachable(error);
      }
    },
    settle: settled.governor.settle,
  };
  return { ledger, governor, ref, purchaseId: () => purchaseId };
}

/**
 * The settling halves of the two steps for an attempt admitted before (a polling result, an
 * unknown attempt reconciled): what the answer said, in the payment's ledger and, once it is
 * known whether it charged, in the card's governor store, with the network's codes (a Visa
 * category 1 code or Mastercard advice 03/21 stops the card). Failures are logged, never thrown:
 * the answer stands whatever the stores kept.
 */
export function settledSteps(
  env: GuardedCharge['env'],
  ref: LedgerRef,
  log: { id: string; call: string },
): { ledger: ChargeStep<unknown>; governor: ChargeStep<unknown> } {
  const failed = (error: unknown) =>
    logError('charge_ledger_failed', {
      ...log,
      attempt: ref.attempt,
      detail: describeError(error),
    });
  return {
    ledger: {
      async settle(_answer, result) {
        const { codes: _codes, ...news } = newsOf(result);
        // A 202 of the polling result says nothing new: no request for it.
        if (news.reading === null && !news.pollingId && !news.challenged) return;
        try {
          await ledgerObject(env, ref.purchase).settle(ref.attempt, news);
        } catch (error) {
          failed(error);
        }
      },
    },
    governor: {
      async settle(_answer, result) {
        const outcome = result.reading && cardOutcomeOf(result.reading, newsOf(result).codes);
        if (!outcome) return;
        try {
          await durableCardAttempts(env.CARD_ATTEMPTS).settle(ref.card, ref.attempt, outcome);
        } catch (error) {
          failed(error);
        }
      },
    },
  };
}

/** The attempt `ref` names as the payment's ledger keeps it; null when it has none. Throws when
 * the ledger cannot be reached: the caller decides what an unread ledger means. */
export async function keptAttempt(
  env: GuardedCharge['env'],
  ref: LedgerRef,
): Promise<LedgerAttempt | null> {
  const ledger = await ledgerObject(env, ref.purchase).ledger();
  return ledger?.attempts.find((attempt) => attempt.id === ref.attempt) ?? null;
}

/**
 * The attempt `ref` names was closed unpaid by the product API (shared/api/attempt-close.ts):
 * its outcome, unknown until now, is TECH_NOT_SENT in the ledger (so the cascade rule may let
 * the card go to the other provider once) and a decline in the card's governor store (counting
 * one too many is stricter than the networks, never looser).
 */
export async function settleClosedUnpaid(
  env: GuardedCharge['env'],
  ref: LedgerRef,
  log: { id: string; call: string },
): Promise<void> {
  const steps = settledSteps(env, ref, log);
  const result: ChargeResult = {
    ...NO_CHARGE_RESULT,
    reading: { outcome: 'TECH_NOT_SENT', advised: false },
  };
  await steps.ledger.settle?.(null, result);
  await steps.governor.settle?.(null, result);
}

/**
 * Where each purchase's attempt ledger is kept (docs/payments.md "One charge per purchase"): one
 * Durable Object per buyer and plan (purchaseKey, ./ledger.ts), so every isolate and location sees the
 * same attempts and one object answers one call at a time (two presses of Pay at once cannot
 * both pass). No key is hot (a buyer buys a plan once), none grows: at most
 * MAX_ATTEMPTS_PER_PURCHASE attempts, and the object forgets the purchase a day after its last
 * attempt, the longest the checkout keeps an unfinished attempt (islands/payments/attempt.ts).
 */

const LEDGER_KEY = 'ledger';

/** How long a purchase's ledger is kept after its last write. */
const LEDGER_KEPT_MS = 24 * 60 * 60_000;

/** The Durable Object of one purchase (`idFromName('purchase:' + key)`, below). */
export class PurchaseAttempts extends DurableObject {
  private async stored(): Promise<PurchaseLedger | null> {
    return (await this.ctx.storage.get<PurchaseLedger>(LEDGER_KEY)) ?? null;
  }

  private async keep(ledger: PurchaseLedger): Promise<void> {
    await this.ctx.storage.put(LEDGER_KEY, ledger);
    await this.ctx.storage.setAlarm(Date.now() + LEDGER_KEPT_MS);
  }

  /**
   * The ledger's word on `proposed` (./ledger.ts admitToLedger), with the purchase's id; an
   * allowed attempt is kept at once as pending. The first attempt names the purchase: a new id
   * the product API de-duplicates on, kept as long as the ledger.
   */
  async admit(proposed: ProposedCharge): Promise<LedgerAdmission & { purchaseId: string }> {
    const ledger = (await this.stored()) ?? {
      purchaseId: `pur_${crypto.randomUUID().replaceAll('-', '')}`,
      attempts: [],
    };
    const admitted = admitToLedger(ledger, proposed);
    if (admitted.allowed && admitted.ledger !== ledger) await this.keep(admitted.ledger);
    return { ...admitted, purchaseId: ledger.purchaseId };
  }

  /** Records what an answer said of the attempt `id` (./ledger.ts settleInLedger). */
  async settle(id: string, news: AttemptNews): Promise<void> {
    const ledger = await this.stored();
    if (ledger) await this.keep(settleInLedger(ledger, id, news));
  }

  /** Takes back a pending attempt that was never sent (the retry governor refused it). */
  async withdraw(id: string): Promise<void> {
    const ledger = await this.stored();
    if (ledger) await this.keep(withdrawFromLedger(ledger, id));
  }

  /** The purchase's ledger, or null when none is kept (for the log and the tests). */
  async ledger(): Promise<PurchaseLedger | null> {
    return this.stored();
  }

  /** A day without an attempt: the purchase is forgotten. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
  }
}

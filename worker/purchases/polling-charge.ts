import { logError } from '../../shared/log';
import type { Bindings } from '../env';
import type { LedgerRef } from '../purchase-ledger/charge-guard';

/**
 * What a card gateway's charge POST asked for, kept under the polling id the product API named
 * (SPEC.md §7 polling flow): its result arrives later, on a GET that names neither the card nor
 * the plan. The card feeds the card-testing limits of a decline; the plan and coupon price a
 * success whose answer leaves out what was charged (../checkout/catalogue-charge.ts); the owner says whose
 * charge it is: only the session that started it reads its result (./charge-owner.ts).
 */
export interface PollingCharge {
  /** The card's fingerprint, null for the card on file or one no source knows. */
  card: string | null;
  /** The `:planId` of the POST. */
  planId: string | null;
  /** The request's coupon code (SPEC.md §3 request payload). */
  coupon: string | null;
  /** The visitor uuid of the session that started it; null in a memo of before owners were kept. */
  visitorId: string | null;
  /** The signed-in user (`gf_user`) of that session; null when none or in a memo of before. */
  userId: string | null;
  /**
   * Where the POST's attempt is kept (worker/purchase-ledger/charge-guard.ts), so its result is
   * recorded in its purchase's ledger; null when it was not kept or in a memo of before.
   */
  ledger?: LedgerRef | null;
}

/** Where the memos are kept (RATE_LIMITER), and the request id a failure is logged under. */
export interface PollingStore {
  namespace: Bindings['RATE_LIMITER'];
  requestId: string;
}

/** How long it is kept: a result is long final by then. */
const KEPT_MS = 60 * 60_000;

function stub(namespace: Bindings['RATE_LIMITER'], pollingId: string) {
  // The key's old name: memos written before the plan was kept stay readable (readCharge).
  return namespace.get(namespace.idFromName(`charged_card:${pollingId}`));
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A memo's ledger place, when it has all three parts. */
function ledgerRefOf(value: unknown): LedgerRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const { purchase, attempt, card } = value as Record<string, unknown>;
  const [p, a, c] = [text(purchase), text(attempt), text(card)];
  return p && a && c ? { purchase: p, attempt: a, card: c } : null;
}

/** A memo as stored: JSON, or the bare card fingerprint of the format before it. */
export function readCharge(fact: string | null): PollingCharge | null {
  if (fact === null) return null;
  if (!fact.startsWith('{')) {
    return { card: fact, planId: null, coupon: null, visitorId: null, userId: null, ledger: null };
  }
  try {
    const kept = JSON.parse(fact) as Record<string, unknown>;
    return {
      card: text(kept.card),
      planId: text(kept.planId),
      coupon: text(kept.coupon),
      visitorId: text(kept.visitorId),
      userId: text(kept.userId),
      ledger: ledgerRefOf(kept.ledger),
    };
  } catch {
    return null;
  }
}

/**
 * Keeps what the POST charged, and for whom (`kept`: the request's visitor and signed-in user).
 * Awaited before the POST answers, so the first poll finds it. A failure is tried once more, then
 * logged (`polling_owner_unsaved`): the result cannot be read through the worker then, and the
 * checkout says it is still confirming the payment (docs/payments.md).
 */
export async function rememberPollingCharge(
  store: PollingStore,
  pollingId: string,
  kept: PollingCharge,
): Promise<void> {
  let failure: unknown = null;
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      await stub(store.namespace, pollingId).remember(JSON.stringify(kept), KEPT_MS);
      return;
    } catch (error) {
      failure = error;
    }
  }
  logError('polling_owner_unsaved', { id: store.requestId, detail: String(failure) });
}

/** The memo of a polling id, or null when none is kept (unknown, expired) or it cannot be read. */
export async function recallPollingCharge(
  store: PollingStore,
  pollingId: string,
): Promise<PollingCharge | null> {
  try {
    return readCharge(await stub(store.namespace, pollingId).recall());
  } catch (error) {
    logError('rate_limiter_failed', { id: store.requestId, detail: String(error) });
    return null;
  }
}

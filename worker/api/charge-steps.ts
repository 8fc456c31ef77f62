import type { ApiCallName, SubscriptionRequest } from '../../shared/api/contract';
import type { ApiRefusal } from '../http/api-error';
import type { CallVisit } from '../middleware/visit';
import type { PortalFetch } from '../portal-client/portal-call';
import { checkoutProviderStep } from '../provider-health/checkout-provider';
import { guardCharge, type LedgerRef } from '../purchase-ledger/charge-guard';
import { withChargedPrice, withPurchaseId } from '../purchases/charged-price';
import { isChargeCall } from './charge-topic';

/** What the product API answered a relayed call, or the refusal that stands for no answer. */
export type Exchanged =
  | { ok: true; answer: { status: number; body: unknown } }
  | { ok: false; refusal: ApiRefusal };

/** The steps around one relayed call that keep a checkout's money safe, or their refusal. */
export type ChargeSteps =
  | { ok: false; refusal: ApiRefusal }
  | {
      ok: true;
      /** The body as it goes to the product API. */
      outgoing: (body: unknown) => unknown;
      /** Records the answer and returns its body for the browser. */
      after: (exchanged: Exchanged) => Promise<unknown>;
      /** The purchase's ledger, for what follows a charge (null: the call is no charge). */
      ledger: LedgerRef | null;
    };

/** What the call charges: its attempt, the card's fingerprint, the plan and coupon. */
export interface ChargeOfCall {
  attempt: string;
  card: string | null;
  order: { planId: string | null; coupon: string | null };
}

/**
 * The card provider's health and pin (worker/provider-health/), then the purchase's attempt ledger
 * and the retry governor (worker/purchase-ledger/), around one relayed call. The provider's pin
 * is asked first: it only reads, so a charge it refuses leaves no attempt in the ledger waiting
 * for an answer that never comes. A charge goes out priced from the catalogue, with its purchase
 * id and its provider (docs/payments.md, docs/product-api.md).
 */
export async function chargeSteps(
  visit: CallVisit,
  name: ApiCallName,
  charge: ChargeOfCall,
  deps: { now: () => number; portalFetch?: PortalFetch },
): Promise<ChargeSteps> {
  const provider = await checkoutProviderStep(visit, name, deps.now());
  if (!provider.ok) return provider;
  const { attempt, card, order } = charge;
  const guard = isChargeCall(name)
    ? await guardCharge(
        visit,
        { call: name, attempt, fingerprint: card, ...order },
        deps.portalFetch,
      )
    : null;
  if (guard && !guard.ok) return guard;
  const guarded = guard?.guarded ?? null;
  return {
    ok: true,
    outgoing: (body) =>
      isChargeCall(name)
        ? provider.outgoing(
            withPurchaseId(
              withChargedPrice(body as SubscriptionRequest, order.planId),
              guarded?.purchaseId ?? null,
            ),
          )
        : body,
    async after(exchanged) {
      await guarded?.settle(
        exchanged.ok ? exchanged.answer : { status: exchanged.refusal.status, body: null },
      );
      return provider.after(
        exchanged.ok
          ? { answered: true, status: exchanged.answer.status, body: exchanged.answer.body }
          : { answered: false, refusal: exchanged.refusal.code },
      );
    },
    ledger: guarded?.ref ?? null,
  };
}

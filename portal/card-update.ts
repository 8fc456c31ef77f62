import type { CardUpdateAnswer, PayDueRequest } from '../shared/api/subscriber-calls';
import { decideCharge } from './gateway';
import { cardOf, declinedError } from './pay-due';
import { PortalError } from './portal-error';
import { applyCardUpdate, awaitCardChallenge, findCardUpdate } from './store/card-updates';
import type { SubscriberRow } from './store/subscriber-actions';
import { insertTestPaymentIntentStatement } from './store/test-payment-intents';
import { findTestPaymentMethod, type TestPaymentMethod } from './store/test-payment-methods';
import { intentSecretOf, newPaymentIntentId } from './test-gateway/payment-ids';

/**
 * A subscriber's card update from the manage link's page (docs/product-api.md "Update the
 * card"): the emulator's gateway sets the card up as Stripe's SetupIntent does, charging
 * nothing. The test cards decide it as they decide a charge (portal/gateway.ts): a declining card
 * is refused, a 3-D Secure card is challenged and a failed challenge leaves the old card.
 */

function updatedAnswer(card: TestPaymentMethod | null): CardUpdateAnswer {
  return {
    data: {
      status: 'updated',
      card_brand: card?.brand ?? null,
      card_last4: card?.last4 ?? null,
      payment_intent_secret: null,
    },
  };
}

/** Opens the card's 3-D Secure challenge for this update (a verification: nothing is charged). */
async function challenge(
  db: D1Database,
  row: SubscriberRow,
  update: { idempotencyKey: string; paymentMethod: string },
): Promise<CardUpdateAnswer> {
  const intentId = newPaymentIntentId();
  const secret = intentSecretOf(intentId);
  const at = new Date().toISOString();
  await insertTestPaymentIntentStatement(db, {
    id: intentId,
    secret,
    purpose: 'verify',
    paymentMethodId: update.paymentMethod,
    userId: row.userId,
    planId: row.planId,
    subscriptionId: row.id,
    status: 'requires_action',
    createdAt: at,
  }).run();
  await awaitCardChallenge(
    db,
    { subscriptionId: row.id, ...update, paymentIntentId: intentId },
    at,
  );
  return {
    data: {
      status: 'requires_action',
      card_brand: null,
      card_last4: null,
      payment_intent_secret: secret,
    },
  };
}

/**
 * POST /subscriptions/{id}/payment-method: makes the card the one the subscription renews with.
 * Answers `updated` with the card, or `requires_action` with a challenge's secret, after which
 * the call repeated with its `payment_intent_id` decides it; a decline (a failed challenge too) is
 * 422 `payment_declined` with the gateway's `decline_code` and the old card stays. The same
 * Idempotency-Key answers its update again and changes nothing twice; an ended subscription is
 * 409 `subscription_ended`.
 */
export async function updateCard(
  db: D1Database,
  row: SubscriberRow & { ended: boolean },
  request: PayDueRequest,
  idempotencyKey: string | null,
): Promise<CardUpdateAnswer> {
  if (row.ended) {
    throw new PortalError(
      409,
      'subscription_ended',
      'This subscription has ended: it has no card to update.',
    );
  }
  // Without a key, the card's own nonce is one: a provider's nonce sets up one card.
  const key = idempotencyKey ?? `nonce:${request.payment_method_nonce}`;
  const earlier = await findCardUpdate(db, row.id, key);
  if (earlier && earlier.paymentMethod !== request.payment_method_nonce) {
    throw new PortalError(409, 'idempotency_conflict', 'This key updated another card.');
  }
  if (earlier?.updatedAt)
    return updatedAnswer(await findTestPaymentMethod(db, earlier.paymentMethod));
  const card = await cardOf(db, row, earlier?.paymentIntentId ?? null, request);
  const decision = decideCharge(card.test?.behaviour ?? 'succeeds', card.authentication);
  if (decision.kind === 'declined') throw declinedError(decision);
  const update = { subscriptionId: row.id, idempotencyKey: key, paymentMethod: card.nonce };
  if (decision.kind === 'requires_authentication') return challenge(db, row, update);
  await applyCardUpdate(db, update, new Date().toISOString());
  return updatedAnswer(card.test);
}

import type { Field } from '../../shared/api/answer-fields';
import {
  CARD_UPDATE_ANSWER,
  type CardUpdateAnswer,
  PAY_DUE_ANSWER,
  type PayDueAnswer,
  type PayDueCall,
  type PayDueRequest,
  SAVE_OFFER_TAKE_ANSWER,
  type SaveOfferTakeAnswer,
  type SaveOfferTakeRequest,
  SUBSCRIBER_ACTION_ANSWER,
  SUBSCRIBER_CALLS,
  SUBSCRIPTION_READ_ANSWER,
  type SubscriberActionAnswer,
  type SubscriberCallName,
  type SubscriptionAnswer,
  subscriberCallPath,
} from '../../shared/api/subscriber-calls';
import type { PortalFetch, Visit } from '../portal-client/portal-call';
import { type SignedCallResult, signedCall } from '../portal-client/signed-call';
import type { SubscriberLink } from './link-token';

/** What a call reads of the page's checked link: whose, which link, and the purchase's look. */
type SubscriberLinkFacts = Pick<SubscriberLink, 'subscriptionId' | 'linkId'> &
  Partial<Pick<SubscriberLink, 'look'>>;

/** What one call of the subscriber's page came to (the product API's 404: no such subscription). */
export type SubscriberCallResult<T> = SignedCallResult<T>;

const ANSWERS: { [N in SubscriberCallName]: Field<unknown> } = {
  subscriptionRead: SUBSCRIPTION_READ_ANSWER,
  subscriptionCancel: SUBSCRIBER_ACTION_ANSWER,
  guaranteeClaim: SUBSCRIBER_ACTION_ANSWER,
  payDue: PAY_DUE_ANSWER,
  cardUpdate: CARD_UPDATE_ANSWER,
  saveOfferTake: SAVE_OFFER_TAKE_ANSWER,
};

/** What a POST carries beyond the purchase's look, and the Idempotency-Key it goes under. */
interface CallRequest {
  body?: PayDueCall | SaveOfferTakeRequest | { source: 'subscriber_page'; reason?: string };
  key?: string;
}

/**
 * Makes one call of the subscriber's page (shared/api/subscriber-calls.ts), signed as the
 * worker's own (../portal-client/signed-call.ts). A POST names the purchase's brand and language
 * where the link carries them, and carries the link's id as its Idempotency-Key, so the same
 * link's action asked twice (a double press) is one action for a product API that honours the key.
 */
function subscriberCall<T>(
  visit: Visit,
  name: SubscriberCallName,
  subscription: SubscriberLinkFacts,
  deps: { portalFetch?: PortalFetch; now: () => number },
  request?: CallRequest,
): Promise<SubscriberCallResult<T>> {
  const call = SUBSCRIBER_CALLS[name];
  // Every action names the purchase's brand and language where the link carries them.
  const look = subscription.look
    ? { brand: subscription.look.theme, language: subscription.look.language }
    : {};
  const post = call.method === 'POST';
  const signed = {
    name,
    call,
    path: subscriberCallPath(name, subscription.subscriptionId),
    body: post ? { ...(request?.body ?? { source: 'subscriber_page' }), ...look } : null,
    idempotencyKey: post ? (request?.key ?? `${name}:${subscription.linkId}`) : null,
  };
  return signedCall(visit, signed, ANSWERS[name] as Field<T>, deps);
}

/** The calls the page makes, each for the subscription its checked link names. */
export interface SubscriberPortal {
  read(): Promise<SubscriberCallResult<SubscriptionAnswer['data']>>;
  /** Cancels, with the reason for leaving the subscriber picked, if any. */
  cancel(reason?: string): Promise<SubscriberCallResult<SubscriberActionAnswer['data']>>;
  /**
   * Takes the save offer's action instead of a cancel (docs/product-api.md, "Save offer
   * actions"), under the link's key: a second press is the same request.
   */
  takeSaveOffer(
    request: SaveOfferTakeRequest,
  ): Promise<SubscriberCallResult<SaveOfferTakeAnswer['data']>>;
  claimGuarantee(): Promise<SubscriberCallResult<SubscriberActionAnswer['data']>>;
  /**
   * Pays what a failed renewal left due with the card the page sent (or the card on file), under
   * the charge pipeline's Idempotency-Key for the link and the card (./subscriber-charge.ts): a
   * second press of one card charges nothing, and another card is another request.
   */
  payDue(payment: PayDueCall, key: string): Promise<SubscriberCallResult<PayDueAnswer['data']>>;
  /**
   * Makes the card the page sent the one the subscription renews with, charging nothing, under
   * the pipeline's key for the link and the card: a second press of one card changes it once.
   */
  updateCard(
    card: PayDueRequest,
    key: string,
  ): Promise<SubscriberCallResult<CardUpdateAnswer['data']>>;
}

/**
 * The product API as the page of one link sees it: the calls go to the subscription the link
 * names, or to `addOnId`, one of its add-ons (./add-ons.ts), which the caller has checked the
 * link's subscription lists. An add-on's cancel and claim go under a key of the link and the
 * add-on (`subscriptionCancel:<link id>:<add-on id>`): each add-on is one action per link, and
 * none of them is the plan's.
 */
export function subscriberPortal(
  visit: Visit,
  link: SubscriberLinkFacts,
  deps: { portalFetch?: PortalFetch; now: () => number },
  addOnId?: string,
): SubscriberPortal {
  const target = addOnId === undefined ? link : { ...link, subscriptionId: addOnId };
  const key = (name: SubscriberCallName) =>
    addOnId === undefined ? undefined : `${name}:${link.linkId}:${addOnId}`;
  const data = async <T>(name: SubscriberCallName, request?: CallRequest) => {
    const result = await subscriberCall<{ data: T }>(visit, name, target, deps, request);
    return result.ok ? { ok: true as const, value: result.value.data } : result;
  };
  return {
    read: () => data('subscriptionRead'),
    cancel: (reason) =>
      data('subscriptionCancel', {
        body: { source: 'subscriber_page', ...(reason === undefined ? {} : { reason }) },
        key: key('subscriptionCancel'),
      }),
    takeSaveOffer: (request) => data('saveOfferTake', { body: request }),
    claimGuarantee: () => data('guaranteeClaim', { key: key('guaranteeClaim') }),
    payDue: (payment, key) => data('payDue', { body: payment, key }),
    updateCard: (card, key) => data('cardUpdate', { body: card, key }),
  };
}

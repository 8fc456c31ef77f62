import { type Field, readAnswer } from '../../shared/api/answer-fields';
import { signatureHeaderFor } from '../../shared/api/hook-signature';
import {
  CARD_UPDATE_ANSWER,
  type CardUpdateAnswer,
  PAY_DUE_ANSWER,
  type PayDueAnswer,
  type PayDueCall,
  type PayDueRequest,
  SUBSCRIBER_ACTION_ANSWER,
  SUBSCRIBER_CALLS,
  SUBSCRIPTION_READ_ANSWER,
  type SubscriberActionAnswer,
  type SubscriberCallName,
  type SubscriptionAnswer,
  subscriberCallPath,
  subscriberCallText,
} from '../../shared/api/subscriber-calls';
import { logError, logWarning } from '../../shared/log';
import { lifecycleKey } from '../portal-client/lifecycle-key';
import { type PortalFetch, sendToPortal, type Visit } from '../portal-client/portal-call';
import type { SubscriberLink } from './link-token';

/** What a call reads of the page's checked link: whose, which link, and the purchase's look. */
type SubscriberLinkFacts = Pick<SubscriberLink, 'subscriptionId' | 'linkId'> &
  Partial<Pick<SubscriberLink, 'look'>>;

/** What one call of the subscriber's page came to. */
export type SubscriberCallResult<T> =
  | { ok: true; value: T }
  /** The product API knows no such subscription (404): the link names nothing to manage. */
  | { ok: false; reason: 'unknown' }
  /** It does not implement the call (501): an older product API. */
  | { ok: false; reason: 'not_implemented' }
  /**
   * It refused the action for good (another 4xx): `code` is its reason, if it gave one, and
   * `declineCode` the gateway's, for a declined payment.
   */
  | { ok: false; reason: 'refused'; code: string | null; declineCode: string | null }
  /** No answer, a 5xx, an answer without what the page needs, or no secret to sign with. */
  | { ok: false; reason: 'unavailable' };

const ANSWERS: { [N in SubscriberCallName]: Field<unknown> } = {
  subscriptionRead: SUBSCRIPTION_READ_ANSWER,
  subscriptionCancel: SUBSCRIBER_ACTION_ANSWER,
  guaranteeClaim: SUBSCRIBER_ACTION_ANSWER,
  payDue: PAY_DUE_ANSWER,
  cardUpdate: CARD_UPDATE_ANSWER,
};

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A refusal's `code` and `decline_code`, each a short word or null. */
function refusalOf(text: string): { code: string | null; declineCode: string | null } {
  const body = parsedJson(text);
  if (typeof body !== 'object' || body === null) return { code: null, declineCode: null };
  const word = (value: unknown) => (typeof value === 'string' ? value.slice(0, 60) : null);
  const { code, decline_code } = body as { code?: unknown; decline_code?: unknown };
  return { code: word(code), declineCode: word(decline_code) };
}

/**
 * Makes one call of the subscriber's page (shared/api/subscriber-calls.ts) through the same
 * transport as `/api`, signed as the worker's own with LIFECYCLE_HMAC_KEY, and reads its answer
 * as tolerantly as the `/api` answers are read (drift logged as `portal_shape`). A POST names the
 * purchase's brand and language where the link carries them, and carries the link's id as its
 * Idempotency-Key, so the same link's action asked twice (a double press) is one action for a
 * product API that honours the key.
 */
async function subscriberCall<T>(
  visit: Visit,
  name: SubscriberCallName,
  subscription: SubscriberLinkFacts,
  deps: { portalFetch?: PortalFetch; now: () => number },
  payment?: { body: PayDueCall; key: string },
): Promise<SubscriberCallResult<T>> {
  const call = SUBSCRIBER_CALLS[name];
  // The lifecycle hook's secret, refused outside development when it is the public one.
  const key = lifecycleKey(visit.env);
  if (!key.ok) {
    logError('subscriber_call_unsigned', { id: visit.requestId, call: name, detail: key.reason });
    return { ok: false, reason: 'unavailable' };
  }
  const secret = key.key;
  const path = subscriberCallPath(name, subscription.subscriptionId);
  // Every action names the purchase's brand and language where the link carries them.
  const look = subscription.look
    ? { brand: subscription.look.theme, language: subscription.look.language }
    : {};
  const body =
    call.method === 'POST'
      ? { ...(payment?.body ?? { source: 'subscriber_page' }), ...look }
      : null;
  const text = subscriberCallText(call.method, path, body === null ? '' : JSON.stringify(body));
  const signature = await signatureHeaderFor(secret, Math.floor(deps.now() / 1000), text);
  const sent = await sendToPortal(
    visit,
    {
      name,
      call,
      path,
      body,
      bearer: null,
      idempotencyKey:
        call.method === 'POST' ? (payment?.key ?? `${name}:${subscription.linkId}`) : null,
      signature,
    },
    deps.portalFetch,
  );
  if (!sent.ok || sent.outcome.kind !== 'answered') return { ok: false, reason: 'unavailable' };
  const { status, text: answerText } = sent.outcome;
  if (status === 404) return { ok: false, reason: 'unknown' };
  if (status === 501) return { ok: false, reason: 'not_implemented' };
  if (status >= 400 && status < 500) {
    return { ok: false, reason: 'refused', ...refusalOf(answerText) };
  }
  if (status < 200 || status >= 300) return { ok: false, reason: 'unavailable' };
  const read = readAnswer(ANSWERS[name], parsedJson(answerText));
  for (const { field, found } of read.drift) {
    logWarning('portal_shape', { id: visit.requestId, call: name, field, found });
  }
  if (!read.ok) {
    logError('portal_bad_response', { id: visit.requestId, call: name, missing: read.missing });
    return { ok: false, reason: 'unavailable' };
  }
  return { ok: true, value: read.value as T };
}

/** The calls the page makes, each for the subscription its checked link names. */
export interface SubscriberPortal {
  read(): Promise<SubscriberCallResult<SubscriptionAnswer['data']>>;
  cancel(): Promise<SubscriberCallResult<SubscriberActionAnswer['data']>>;
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

/** The product API as the page of one link sees it. */
export function subscriberPortal(
  visit: Visit,
  link: SubscriberLinkFacts,
  deps: { portalFetch?: PortalFetch; now: () => number },
): SubscriberPortal {
  const data = async <T>(name: SubscriberCallName, payment?: { body: PayDueCall; key: string }) => {
    const result = await subscriberCall<{ data: T }>(visit, name, link, deps, payment);
    return result.ok ? { ok: true as const, value: result.value.data } : result;
  };
  return {
    read: () => data('subscriptionRead'),
    cancel: () => data('subscriptionCancel'),
    claimGuarantee: () => data('guaranteeClaim'),
    payDue: (payment, key) => data('payDue', { body: payment, key }),
    updateCard: (card, key) => data('cardUpdate', { body: card, key }),
  };
}

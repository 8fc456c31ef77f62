import { type Field, readAnswer } from '../../shared/api/answer-fields';
import type { ApiCall } from '../../shared/api/contract';
import { signatureHeaderFor } from '../../shared/api/hook-signature';
import { subscriberCallText } from '../../shared/api/subscriber-calls';
import { logError, logWarning } from '../../shared/log';
import { lifecycleKey } from './lifecycle-key';
import { type PortalFetch, sendToPortal, type Visit } from './portal-call';

/**
 * A call the worker makes to the product API on its own authority, no visitor's bearer token
 * with it: the subscriber's page's (shared/api/subscriber-calls.ts) and the contract page's
 * (shared/api/contract-calls.ts). Each is signed as the worker's own with `Geofunnel-Signature`
 * over the method, path and body under LIFECYCLE_HMAC_KEY, sent through the same transport as
 * `/api`, and its answer read as tolerantly as the `/api` answers are (drift logged as
 * `portal_shape`).
 */

/** What one signed call came to. */
export type SignedCallResult<T> =
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

/** One signed call: its name in the log lines, its contract, its filled path and body. */
export interface SignedCall {
  name: string;
  call: ApiCall;
  path: string;
  /** A POST's body (null for a GET). */
  body: unknown;
  /** A POST's Idempotency-Key, so the same action asked twice is one action. */
  idempotencyKey: string | null;
}

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

/** Makes `signed`, reading a 2xx answer by `answer`. */
export async function signedCall<T>(
  visit: Visit,
  signed: SignedCall,
  answer: Field<T>,
  deps: { portalFetch?: PortalFetch; now: () => number },
): Promise<SignedCallResult<T>> {
  const { name, call, path, body } = signed;
  // The lifecycle hook's secret, refused outside development when it is the public one.
  const key = lifecycleKey(visit.env);
  if (!key.ok) {
    logError('subscriber_call_unsigned', { id: visit.requestId, call: name, detail: key.reason });
    return { ok: false, reason: 'unavailable' };
  }
  const text = subscriberCallText(call.method, path, body === null ? '' : JSON.stringify(body));
  const signature = await signatureHeaderFor(key.key, Math.floor(deps.now() / 1000), text);
  const sent = await sendToPortal(
    visit,
    { name, call, path, body, bearer: null, idempotencyKey: signed.idempotencyKey, signature },
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
  const read = readAnswer(answer, parsedJson(answerText));
  for (const { field, found } of read.drift) {
    logWarning('portal_shape', { id: visit.requestId, call: name, field, found });
  }
  if (!read.ok) {
    logError('portal_bad_response', { id: visit.requestId, call: name, missing: read.missing });
    return { ok: false, reason: 'unavailable' };
  }
  return { ok: true, value: read.value };
}

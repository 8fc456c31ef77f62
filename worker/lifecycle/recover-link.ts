import type { RecoverLinkAnswer } from '../../shared/api/lifecycle';
import type { Bindings } from '../env';
import { subscriberLinkKey } from '../subscriber-links/link-key';
import { signSubscriberLink, subscriberLinkUrl } from '../subscriber-links/link-token';

/**
 * The signed `recover` link a `renewal_failed` is answered with (docs/product-api.md, "Failed
 * renewals"): the product API puts it in the email that asks the subscriber to pay what is due,
 * and it opens the recovery page (`/subscription/<token>`) on the worker's own origin, the
 * origin the product API called. A fresh link per answer (30 days, its own link id), so a retried
 * delivery gets one too; nothing is stored for it, the signature is the record.
 */

/** Whether links can be signed here; a `renewal_failed` is refused (503) before it counts if not. */
export function canSignRecoverLinks(env: Bindings): { ok: true } | { ok: false; reason: string } {
  const key = subscriberLinkKey(env);
  return key.ok ? { ok: true } : key;
}

/** `{ recover_url }` for `subscriptionId`, signed at `nowMs`; `{}` when no key is set. */
export async function recoverLinkAnswer(
  env: Bindings,
  origin: string,
  subscriptionId: string,
  nowMs: number,
): Promise<RecoverLinkAnswer> {
  const key = subscriberLinkKey(env);
  if (!key.ok) return {};
  const { token } = await signSubscriberLink(key.key, 'recover', subscriptionId, nowMs);
  return { recover_url: subscriberLinkUrl(origin, token) };
}

import type { RecoverLinkAnswer } from '../../shared/api/lifecycle';
import { describeError, logWarning } from '../../shared/log';
import type { Bindings } from '../env';
import { subscriberLinkKey } from '../subscriber-links/link-key';
import {
  type LinkLook,
  signSubscriberLink,
  subscriberLinkUrl,
} from '../subscriber-links/link-token';

/**
 * The signed `recover` link a `renewal_failed` is answered with (docs/product-api.md, "Failed
 * renewals"): the product API puts it in the email that asks the subscriber to pay what is due,
 * and it opens the recovery page (`/subscription/<token>`) on the worker's own origin, the
 * origin the product API called, in the brand and language the subscription was bought in. A
 * fresh link per answer (30 days, its own link id), so a retried delivery gets one too; nothing is
 * stored for it, the signature is the record.
 */

/** Whether links can be signed here; a `renewal_failed` is refused (503) before it counts if not. */
export function canSignRecoverLinks(env: Bindings): { ok: true } | { ok: false; reason: string } {
  const key = subscriberLinkKey(env);
  return key.ok ? { ok: true } : key;
}

/**
 * `{ recover_url }` for `subscriptionId`, signed at `nowMs`, in the brand and language it was
 * bought in where its ledger kept them (`lookOf`), which the answer then names too (`brand`,
 * `language`); `{}` when no key is set. A ledger that cannot
 * say answers a link without a look, which opens all the same, in the browser's.
 */
export async function recoverLinkAnswer(
  env: Bindings,
  origin: string,
  subscription: { id: string; lookOf: (id: string) => Promise<LinkLook | null> },
  nowMs: number,
  requestId: string,
): Promise<RecoverLinkAnswer> {
  const key = subscriberLinkKey(env);
  if (!key.ok) return {};
  const look = await subscription.lookOf(subscription.id).catch((error: unknown) => {
    logWarning('recover_link_look_unknown', { id: requestId, detail: describeError(error) });
    return null;
  });
  const { token, link } = await signSubscriberLink(
    key.key,
    'recover',
    subscription.id,
    nowMs,
    look,
  );
  const url = subscriberLinkUrl(origin, token);
  return link.look
    ? { recover_url: url, brand: link.look.theme, language: link.look.language }
    : { recover_url: url };
}

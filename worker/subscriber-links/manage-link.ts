import { logWarning } from '../../shared/log';
import type { Bindings } from '../env';
import { subscriberLinkKey } from './link-key';
import { type LinkLook, signSubscriberLink, subscriberLinkUrl } from './link-token';

/**
 * A fresh manage link for the subscription a charge just made, on the funnel's own origin, in the
 * purchase's brand and language (`look`): the receipt and success show it ("Manage or cancel your subscription"). Null, and a warning once
 * per charge, when SUBSCRIBER_LINK_KEY is not configured (./link-key.ts): the receipt then says
 * how to cancel in words only, as before.
 */
export async function manageLinkFor(
  { env, origin, requestId }: { env: Bindings; origin: string; requestId: string },
  subscriptionId: string,
  nowMs: number,
  look: LinkLook,
): Promise<string | null> {
  const key = subscriberLinkKey(env);
  if (!key.ok) {
    logWarning('manage_link_not_made', { id: requestId, reason: key.reason });
    return null;
  }
  try {
    const { token } = await signSubscriberLink(key.key, 'manage', subscriptionId, nowMs, look);
    return subscriberLinkUrl(origin, token);
  } catch (error) {
    // An id no link can carry (./link-token.ts): the product API's, not the visitor's, fault.
    logWarning('manage_link_not_made', { id: requestId, reason: String(error) });
    return null;
  }
}

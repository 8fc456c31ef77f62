import type { Bindings } from '../env';
import { isDevelopment } from '../environment';

/**
 * wrangler.toml's [env.development.vars] SUBSCRIBER_LINK_KEY: signs the subscribers' links under
 * `npm start` and in the tests. Public by being in the repository.
 */
export const DEVELOPMENT_SUBSCRIBER_LINK_KEY = 'geofunnel-development-subscriber-link-key';

export type SubscriberLinkKey = { ok: true; key: string } | { ok: false; reason: string };

/**
 * The secret the subscribers' links are signed with (./link-token.ts). Unset, no link can be made
 * or opened: the routes that need one answer 503 `links_not_configured`. The development value is
 * refused outside development, where anyone who read the repository could make a link that
 * cancels another subscriber's subscription.
 */
export function subscriberLinkKey(env: Bindings): SubscriberLinkKey {
  const key = env.SUBSCRIBER_LINK_KEY;
  if (!key) return { ok: false, reason: 'SUBSCRIBER_LINK_KEY is not set' };
  if (key === DEVELOPMENT_SUBSCRIBER_LINK_KEY && !isDevelopment(env)) {
    return { ok: false, reason: 'SUBSCRIBER_LINK_KEY is the public development key' };
  }
  return { ok: true, key };
}

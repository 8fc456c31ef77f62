import type { Bindings } from '../env';
import { secretOutsideDevelopment, type UsableSecret } from '../environment';

/**
 * wrangler.toml's [env.development.vars] SUBSCRIBER_LINK_KEY: signs the subscribers' links under
 * `npm start` and in the tests. Public by being in the repository.
 */
export const DEVELOPMENT_SUBSCRIBER_LINK_KEY = 'geofunnel-development-subscriber-link-key';

/**
 * The secret the subscribers' links are signed with (./link-token.ts). Unset, no link can be made
 * or opened: the routes that need one answer 503 `links_not_configured`. The development value is
 * refused outside development, where anyone who read the repository could make a link that
 * cancels another subscriber's subscription.
 */
export function subscriberLinkKey(env: Bindings): UsableSecret {
  return secretOutsideDevelopment(env, 'SUBSCRIBER_LINK_KEY', DEVELOPMENT_SUBSCRIBER_LINK_KEY);
}

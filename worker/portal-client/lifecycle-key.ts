import type { Bindings } from '../env';
import { secretOutsideDevelopment, type UsableSecret } from '../environment';

/**
 * wrangler.toml's [env.development.vars] LIFECYCLE_HMAC_KEY: signs the embedded portal's
 * lifecycle calls under `npm start` and in the tests. Public by being in the repository.
 */
export const DEVELOPMENT_LIFECYCLE_KEY = 'geofunnel-development-lifecycle-key';

/**
 * The secret shared with the product API (kept here, with its client, as both the lifecycle hook
 * and the subscriber's page use it): it verifies the lifecycle events the product API signs and
 * signs the worker's own calls for a subscriber. Unset, nothing can be verified, so the endpoint
 * answers 503 (the product API keeps its events and retries); the development value is refused
 * outside development, where anyone who read the repository could sign refunds with it.
 */
export function lifecycleKey(env: Bindings): UsableSecret {
  return secretOutsideDevelopment(env, 'LIFECYCLE_HMAC_KEY', DEVELOPMENT_LIFECYCLE_KEY);
}

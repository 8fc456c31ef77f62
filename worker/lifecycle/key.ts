import type { Bindings } from '../env';
import { isDevelopment } from '../environment';

/**
 * wrangler.toml's [env.development.vars] LIFECYCLE_HMAC_KEY: signs the embedded portal's
 * lifecycle calls under `npm start` and in the tests. Public by being in the repository.
 */
export const DEVELOPMENT_LIFECYCLE_KEY = 'geofunnel-development-lifecycle-key';

export type LifecycleKey = { ok: true; key: string } | { ok: false; reason: string };

/**
 * The secret lifecycle events are signed with. Unset, nothing can be verified, so the endpoint
 * answers 503 (the product API keeps its events and retries). The development value is refused
 * outside development: anyone who read the repository could sign refunds with it, so a deployed
 * worker given it by mistake is as good as not configured.
 */
export function lifecycleKey(env: Bindings): LifecycleKey {
  const key = env.LIFECYCLE_HMAC_KEY;
  if (!key) return { ok: false, reason: 'LIFECYCLE_HMAC_KEY is not set' };
  if (key === DEVELOPMENT_LIFECYCLE_KEY && !isDevelopment(env)) {
    return { ok: false, reason: 'LIFECYCLE_HMAC_KEY is the public development key' };
  }
  return { ok: true, key };
}

import { createRemoteJWKSet, customFetch } from 'jose';
import type { GoogleKeys } from './google-id-token';

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

/**
 * How long a fetched key set is used before it is fetched again. Google publishes a new key well
 * before signing with it, and a token naming a key the set lacks refreshes it early (below), so
 * this only bounds how long a key Google withdrew stays trusted here.
 */
export const KEY_SET_MAX_AGE_MS = 10 * 60_000;

/**
 * A refresh for an unknown `kid` is honoured at most this often, so tokens with made-up key ids
 * cannot make the worker fetch Google's keys on every request.
 */
export const MIN_REFRESH_INTERVAL_MS = 60_000;

const FETCH_TIMEOUT_MS = 5_000;

/**
 * Google's signing keys, fetched and cached by jose (one cache per call, so per app and per
 * isolate). On Workers jose does not share an in-flight fetch between requests: a fetch belongs to
 * the request that started it, and workerd would cancel another request's wait on it as hung.
 * `fetch` stands in for the network in tests, so no test reaches Google.
 */
export function googleKeySet(options: { fetch?: typeof fetch } = {}): GoogleKeys {
  return createRemoteJWKSet(new URL(GOOGLE_JWKS_URL), {
    cacheMaxAge: KEY_SET_MAX_AGE_MS,
    cooldownDuration: MIN_REFRESH_INTERVAL_MS,
    timeoutDuration: FETCH_TIMEOUT_MS,
    ...(options.fetch ? { [customFetch]: options.fetch } : {}),
  });
}

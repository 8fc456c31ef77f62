import { z } from 'zod';
import type { GoogleKeySet } from './google-id-token';

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

/**
 * Where the worker gets Google's signing keys; tests supply their own (AppOptions.googleKeys).
 * `refresh` asks for a fresh copy when a token names a key the cached set lacks.
 */
export type GoogleKeySource = (options?: { refresh?: boolean }) => Promise<GoogleKeySet>;

const KeySet = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })).min(1),
});

const FETCH_TIMEOUT_MS = 5_000;
/**
 * A refresh for an unknown `kid` is honoured at most this often, so tokens with made-up key ids
 * cannot make the worker fetch Google's keys on every request.
 */
export const MIN_REFRESH_INTERVAL_MS = 60_000;

/** Seconds of `max-age` in a Cache-Control header, or 0 when it names none. */
export function maxAgeSeconds(cacheControl: string | null): number {
  const match = cacheControl?.match(/(?:^|,)\s*max-age=(\d+)/i);
  return match ? Number(match[1]) : 0;
}

/**
 * Google's JWKS, reused for as long as Google's Cache-Control allows (its keys rotate, and it
 * publishes a new key well before signing with it). A token signed with a key the cached set
 * lacks gets one early refresh, in case the set was cached just before the new key appeared.
 *
 * Only the resolved keys are cached, never an in-flight promise: a fetch belongs to the request
 * that started it, and workerd cancels another request's wait on it as hung. Two concurrent cold
 * requests therefore fetch twice, which is harmless.
 */
export function createGoogleKeySource(
  options: { fetch?: typeof fetch; now?: () => number } = {},
): GoogleKeySource {
  const now = options.now ?? Date.now;
  let cached: { keys: GoogleKeySet; fetchedAt: number; expiresAt: number } | null = null;
  return async function googleKeys({ refresh = false } = {}) {
    const fresh = cached !== null && now() < cached.expiresAt;
    const mayRefresh = cached !== null && now() - cached.fetchedAt >= MIN_REFRESH_INTERVAL_MS;
    if (cached && fresh && !(refresh && mayRefresh)) return cached.keys;
    const response = await (options.fetch ?? fetch)(GOOGLE_JWKS_URL, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`Google JWKS answered ${response.status}`);
    const keys = KeySet.parse(await response.json()) as GoogleKeySet;
    cached = {
      keys,
      fetchedAt: now(),
      expiresAt: now() + maxAgeSeconds(response.headers.get('cache-control')) * 1000,
    };
    return keys;
  };
}

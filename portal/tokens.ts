/**
 * Secrets the portal hands out: bearer access tokens and one-time deeplink login tokens, and the
 * opaque ids of subscriptions, events and polling results.
 */

/** 32 random bytes by default (256 bits), base64url without padding: safe in headers and URLs. */
export function randomToken(bytes = 32): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let binary = '';
  for (const byte of buffer) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A prefixed opaque id such as `sub_…`, the way payment providers name their objects. */
export function prefixedId(prefix: string): string {
  return `${prefix}_${randomToken(12)}`;
}

/** Bytes as lowercase hex, two digits each: record ids and SHA-256 digests as stored and sent. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The first `chars` hex digits (all 64 by default) of the SHA-256 of `text`: a stable, one-way
 * stand-in for a token, an address or a key, in the worker and the portal alike.
 */
export async function sha256Hex(text: string, chars = 64): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return hex(new Uint8Array(digest)).slice(0, chars);
}

/**
 * Unpadded base64url (RFC 4648 §5), as JWT segments are written (RFC 7515 §2): the worker's
 * Google ID-token check and the emulator's reading of the same token share one decoder.
 */

/** The bytes a segment encodes, or null when it is not base64url. */
export function base64UrlBytes(segment: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) return null;
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The UTF-8 text a segment encodes (names may be non-ASCII), or null. */
export function base64UrlText(segment: string): string | null {
  const bytes = base64UrlBytes(segment);
  if (!bytes) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

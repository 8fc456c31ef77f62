/** Bytes as lowercase hex, two digits each: record ids and SHA-256 digests as stored and sent. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

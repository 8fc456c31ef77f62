/** Placeholder until the hashing lands. */
export function hashShare(seed: string, visitorId: string): number {
  let hash = 0x811c9dc5;
  const text = seed + visitorId;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return (hash % 10000) / 10000;
}

/**
 * mulberry32 (Tommy Ettinger): a small seeded 32-bit generator, numbers in [0, 1) like
 * Math.random. For what must come out the same for the same seed: a place's streets on the map,
 * a demo's draws, a benchmark's document and visitors. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

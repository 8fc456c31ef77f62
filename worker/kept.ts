/**
 * What an isolate keeps between requests: the answer under `key`, made and kept when missing.
 * At most `capacity` are kept; a new one pushes out the oldest (a Map keeps insertion order).
 * For answers worked out from a few values that rarely change (a deployment's bindings, a
 * language and title), so each request reads what the first one made.
 */
export function keptOrMade<K, V>(kept: Map<K, V>, capacity: number, key: K, make: () => V): V {
  const found = kept.get(key);
  if (found !== undefined) return found;
  const made = make();
  if (kept.size >= capacity) kept.delete(kept.keys().next().value as K);
  kept.set(key, made);
  return made;
}

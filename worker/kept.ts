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

/**
 * `parse` of a binding's text, answered again without parsing while the text is the same: an
 * isolate serves many requests with the same bindings, so what a request reads from one is
 * worked out once (docs/performance.md, "A page's CPU on the server"). The answer is shared between
 * requests, so it is frozen, and callers read it only.
 */
export function parsedBinding<T>(
  parse: (text: string | undefined) => T,
): (text: string | undefined) => Readonly<T> {
  let last: { text: string | undefined; parsed: Readonly<T> } | undefined;
  return (text) => {
    if (last === undefined || last.text !== text) {
      last = { text, parsed: Object.freeze(parse(text)) };
    }
    return last.parsed;
  };
}

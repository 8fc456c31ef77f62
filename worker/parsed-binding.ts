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

/**
 * Where a content document shows a picture: every place its id is named, by path
 * (`screens.one_pager.variants.b.picture`). Read from the document as JSON rather than from its
 * known fields, so a section that learns to show a picture later is found without a change here
 * (an id is a SHA-256 in hex: nothing else in a document spells it).
 */
export function pictureUses(document: unknown, id: string, at = ''): string[] {
  if (document === null || typeof document !== 'object') return [];
  const uses: string[] = [];
  for (const [key, value] of Object.entries(document)) {
    const path = at ? `${at}.${key}` : key;
    // A picture is named as `{ id, width, height, alt }`: the place is the object holding it.
    if (value === id) uses.push(key === 'id' && at ? at : path);
    else uses.push(...pictureUses(value, id, path));
  }
  return uses;
}

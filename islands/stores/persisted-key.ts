/**
 * Where a persisted slice keeps a field in localStorage: `gf:<slice>:<field>`. Apart from
 * persisted-slice.ts, and importing nothing, so code that reads one field before any store loads
 * (the analytics facade, boot) names it through here rather than retyping the layout.
 */
export const PERSIST_PREFIX = 'gf:';

export function persistedKey(slice: string, field: string): string {
  return `${PERSIST_PREFIX}${slice}:${field}`;
}

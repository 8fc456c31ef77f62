import manifest, { type ManifestChunk } from '#client-manifest';

/**
 * A module of the browser build by its source path (`islands/boot.ts`); a missing one means the
 * worker was built against another client build, which no page can recover from.
 */
export function clientChunk(key: string): ManifestChunk {
  const found = manifest[key];
  if (!found) throw new Error(`"${key}" is missing from the client build; run npm run build`);
  return found;
}

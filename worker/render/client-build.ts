import manifest from '#client-manifest';

/** One entry or chunk of the browser build (Vite's manifest). */
export interface ManifestChunk {
  file: string;
  imports?: string[];
}

const chunks: Record<string, ManifestChunk> = manifest;

/**
 * A module of the browser build by its source path (`islands/boot.ts`); a missing one means the
 * worker was built against another client build, which no page can recover from.
 */
export function clientChunk(key: string): ManifestChunk {
  const found = chunks[key];
  if (!found) throw new Error(`"${key}" is missing from the client build; run npm run build`);
  return found;
}

import type { IslandName } from '../../screens/islands';
import { clientChunk } from './client-build';

/** A module's URL and every chunk it imports, for <link rel=modulepreload>. */
function collect(key: string, into: Set<string>): string {
  const { file, imports = [] } = clientChunk(key);
  for (const dependency of imports) into.add(collect(dependency, into));
  return `/${file}`;
}

export interface PageScripts {
  boot: string;
  hydrate: string | null;
  islands: { name: IslandName; url: string }[];
  preload: string[];
}

/** The built files one page needs: the boot module, and the hydrator only with islands. */
export function pageScripts(islandNames: Iterable<IslandName>): PageScripts {
  const preload = new Set<string>();
  const boot = collect('islands/boot.ts', preload);
  const islands = [...islandNames].map((name) => ({
    name,
    url: collect(`islands/${name}.tsx`, preload),
  }));
  const hydrate = islands.length ? collect('islands/hydrate.ts', preload) : null;
  for (const url of [boot, hydrate, ...islands.map((i) => i.url)]) if (url) preload.delete(url);
  return { boot, hydrate, islands, preload: [...preload] };
}

import type { IslandName } from '../../screens/islands';
import { clientChunk } from './client-build';

/** A module's URL and every chunk it imports, for <link rel=modulepreload>. */
function collect(key: string, into: Set<string>): string {
  const { file, imports = [] } = clientChunk(key);
  for (const dependency of imports) into.add(collect(dependency, into));
  return `/${file}`;
}

/** Shared by every page with the same islands: read only. */
export interface PageScripts {
  readonly boot: string;
  readonly hydrate: string | null;
  readonly islands: readonly { readonly name: IslandName; readonly url: string }[];
  readonly preload: readonly string[];
}

/** Per set of islands: the build never changes in an isolate's life, and there are few sets. */
const scriptsBySet = new Map<string, PageScripts>();

/**
 * The built files one page needs: the boot module, and the hydrator only with islands. Worked
 * out once per set of islands (walking the manifest's imports was about 5% of the worker's CPU
 * for a landing: docs/performance.md, "A page's CPU on the server").
 */
export function pageScripts(islandNames: Iterable<IslandName>): PageScripts {
  const names = [...islandNames];
  const key = names.join(',');
  let scripts = scriptsBySet.get(key);
  if (!scripts) {
    scripts = manifestScripts(names);
    scriptsBySet.set(key, scripts);
  }
  return scripts;
}

function manifestScripts(islandNames: readonly IslandName[]): PageScripts {
  const preload = new Set<string>();
  const boot = collect('islands/boot.ts', preload);
  const islands = islandNames.map((name) => ({
    name,
    url: collect(`islands/${name}.tsx`, preload),
  }));
  const hydrate = islands.length ? collect('islands/hydrate.ts', preload) : null;
  for (const url of [boot, hydrate, ...islands.map((i) => i.url)]) if (url) preload.delete(url);
  return { boot, hydrate, islands, preload: [...preload] };
}

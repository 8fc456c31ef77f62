import { basename } from 'node:path';

/**
 * How the browser build cuts its files (vite.config.ts's `manualChunks`). A page asks for each
 * file with a modulepreload after its first paint, and each request costs a slow phone's main
 * thread a few ms (docs/performance.md, "Fewer files for what every page loads"), so what pages load
 * together goes in one file:
 * - React, React DOM and the scheduler: every page with an island loads them;
 * - boot and everything it imports: every funnel page runs it;
 * - a module that two or more islands import at once goes with the others needed on the same
 *   pages, counting the pages where a lazy module (sign-up, the purchase, the tracker) may
 *   import it. Rollup's default keys a file by each importing module instead, which cut the
 *   checkout's shared code into a dozen files of 100-1000 B;
 * - the groups too small for a file of their own (a store, a hook) go together in `shared`.
 * Modules that one island alone imports stay in its file, and lazy code keeps Rollup's split.
 */

/** What the plan reads of Rollup's module graph (its `getModuleInfo`). */
export type ModuleGraph = (id: string) => {
  readonly importedIds: readonly string[];
  readonly dynamicallyImportedIds: readonly string[];
  readonly code: string | null;
} | null;

/** The modules every page starts from: boot, and one per island. */
export interface PageRoots {
  readonly boot: string;
  readonly islands: readonly string[];
  /**
   * Entries of pages that never run boot (the console): a module they share with the islands is
   * cut apart from the islands' own code, so such a page never loads an island or boot with it.
   */
  readonly apart?: readonly string[];
}

const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/** A group of modules whose code is under this many characters is too small for a file. */
export const SMALL_GROUP = 1500;

/** Every module `from` imports, itself included: statically, or lazily as well. */
function graphFrom(graph: ModuleGraph, from: string, lazy: boolean): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const info = graph(id);
    for (const imported of info?.importedIds ?? []) visit(imported);
    if (lazy) for (const imported of info?.dynamicallyImportedIds ?? []) visit(imported);
  };
  visit(from);
  return seen;
}

/**
 * The pages, named by their islands, that may need each module an island imports at once: the
 * islands that import it at once, and those that may import a lazy module importing it. Boot's
 * lazy modules (the tracker, the pixels) may load on any page, named by boot.
 */
function pagesNeeding(graph: ModuleGraph, roots: PageRoots): Map<string, Set<string>> {
  const pages = new Map<string, Set<string>>();
  const add = (id: string, islands: Iterable<string>) => {
    const set = pages.get(id) ?? new Set<string>();
    for (const island of islands) set.add(island);
    pages.set(id, set);
  };
  for (const island of roots.islands) {
    for (const id of graphFrom(graph, island, false)) add(id, [island]);
  }
  const lazyEntries = new Map<string, Set<string>>();
  for (const page of [roots.boot, ...roots.islands]) {
    for (const id of graphFrom(graph, page, true)) {
      for (const entry of graph(id)?.dynamicallyImportedIds ?? []) {
        lazyEntries.set(entry, (lazyEntries.get(entry) ?? new Set()).add(page));
      }
    }
  }
  for (const [entry, islands] of lazyEntries) {
    for (const id of graphFrom(graph, entry, false)) if (pages.has(id)) add(id, islands);
  }
  for (const page of roots.apart ?? []) {
    for (const id of graphFrom(graph, page, false)) if (pages.has(id)) add(id, [page]);
  }
  return pages;
}

/**
 * The groups too small for a file of their own, which go together in one: those whose imports
 * are all in boot, React or another such group, so that the shared file never drags a larger
 * one onto a page.
 */
function smallGroups(
  graph: ModuleGraph,
  groups: string[][],
  boot: Set<string>,
  apart: Set<string>,
): Set<string[]> {
  const codeLength = (ids: string[]) =>
    ids.reduce((sum, id) => sum + (graph(id)?.code?.length ?? 0), 0);
  // A page apart shares the small groups' file: none of its groups may draw boot in.
  const small = new Set(
    groups.filter((ids) => codeLength(ids) < SMALL_GROUP && !ids.some((id) => apart.has(id))),
  );
  const loadedAnyway = (id: string) => boot.has(id) || REACT.test(id);
  for (let changed = true; changed; ) {
    changed = false;
    const inSmall = new Set([...small].flat());
    for (const ids of small) {
      const imports = ids.flatMap((id) => graph(id)?.importedIds ?? []);
      if (imports.every((id) => inSmall.has(id) || loadedAnyway(id))) continue;
      small.delete(ids);
      changed = true;
    }
  }
  return small;
}

/** A group's file is named after its first module of ours, or else the package it is from. */
function groupName(ids: string[]): string {
  const [ours] = ids.filter((id) => !id.includes('node_modules')).sort();
  if (ours !== undefined) return basename(ours).replace(/\.\w+$/, '');
  const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(ids.join('\n'))?.[1];
  return (pkg ?? 'vendor').replace(/\W+/g, '-');
}

/** The file each module goes in, by name; a module not named keeps Rollup's own split. */
export function chunkPlan(graph: ModuleGraph, roots: PageRoots): Map<string, string> {
  const boot = graphFrom(graph, roots.boot, false);
  const apart = new Set((roots.apart ?? []).flatMap((page) => [...graphFrom(graph, page, false)]));
  const groups = new Map<string, string[]>();
  for (const [id, pages] of pagesNeeding(graph, roots)) {
    if (pages.size < 2 || roots.islands.includes(id) || boot.has(id) || REACT.test(id)) continue;
    const key = [...pages].sort().join('\n');
    const group = groups.get(key);
    if (group) group.push(id);
    else groups.set(key, [id]);
  }
  const small = smallGroups(graph, [...groups.values()], boot, apart);

  const plan = new Map<string, string>();
  for (const id of boot) if (!REACT.test(id)) plan.set(id, 'boot');
  // Rollup puts every module given one name in one file: two groups named alike (two index.ts)
  // must not become one.
  const taken = new Set(['boot', 'react', 'shared']);
  for (const ids of groups.values()) {
    let name = 'shared';
    if (!small.has(ids)) {
      const base = groupName(ids);
      name = base;
      for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
      taken.add(name);
    }
    for (const id of ids) plan.set(id, name);
  }
  return plan;
}

/**
 * Rollup's `manualChunks` for these roots. The plan is worked out once per build: each build
 * (vite build, a watch rebuild) has its own `getModuleInfo`.
 */
export function clientChunks(roots: PageRoots) {
  let planned: { of: ModuleGraph; plan: Map<string, string> } | undefined;
  return (id: string, { getModuleInfo }: { getModuleInfo: ModuleGraph }): string | undefined => {
    if (REACT.test(id)) return 'react';
    if (planned?.of !== getModuleInfo) {
      planned = { of: getModuleInfo, plan: chunkPlan(getModuleInfo, roots) };
    }
    return planned.plan.get(id);
  };
}

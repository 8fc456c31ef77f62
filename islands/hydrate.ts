import { type ComponentType, createElement, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { showIslandFailure } from './island-failure';
import {
  type ChunkLoadError,
  type ChunkLoading,
  loadChunk,
  reportChunkFailure,
} from './island-loading';
import { IslandRoot } from './island-root';
import { wentWithThePage } from './page-going';
import {
  ISLAND_ATTR,
  ISLAND_PREFIX_ATTR,
  ISLAND_PROPS_ATTR,
  ISLAND_SCRIPT_ONLY_ATTR,
  type IslandFailureCopy,
} from './protocol';

type IslandModule = { default: ComponentType<never> };

/** What tests replace: how a module is imported, and the stall time-out and its clock. */
export interface HydrationOptions extends Omit<ChunkLoading, 'chunk'> {
  importModule?: (url: string) => Promise<IslandModule>;
}

const importModule = (url: string): Promise<IslandModule> => import(/* @vite-ignore */ url);

const hydrated = new WeakSet<Element>();

/** Lets the browser paint and handle input between two pieces of start-up work. */
function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Hydrates the marker's server HTML with its island; resolves once React has committed. */
function hydrateMarker(element: Element, component: ComponentType<never>): Promise<void> {
  const props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTR) ?? '{}') as never;
  return new Promise<void>((onCommit) => {
    // As a transition, React renders the hydration in slices of a few milliseconds and yields
    // between them, so a tap or keystroke meanwhile is handled at once (and the island it lands
    // in is hydrated first) rather than after one long task.
    startTransition(() => {
      hydrateRoot(
        element,
        createElement(IslandRoot, { onCommit }, createElement(component, props)),
        {
          identifierPrefix: element.getAttribute(ISLAND_PREFIX_ATTR) ?? '',
        },
      );
    });
  });
}

/**
 * The island's module, under a fresh URL on each call after the first: Chromium remembers a
 * module that failed to load under its URL, and an import of that URL fails again at once without
 * a request. The query reaches the same file (static files are served by their path).
 */
function importer(url: string, load: (url: string) => Promise<IslandModule>) {
  let tries = 0;
  return () => {
    const retry = tries++;
    return load(retry === 0 ? url : `${url}?retry=${retry}`);
  };
}

/**
 * Loads and hydrates one island. When its module fails or stalls twice (island-loading.ts), the
 * failure is reported, unless the page went with it (./page-going.ts); an island whose server HTML works without script keeps it, any other
 * (ISLAND_SCRIPT_ONLY_ATTR) gives way to a message with Reload. Reload loads the module again
 * (twice at most) and hydrates the island in place, the server HTML back first. Should that fail
 * too, the page reloads: a file the island imports that failed stays failed in this document
 * under its URL, and a new document asks for every file anew. Resolves once the island has
 * committed or its failure shows.
 */
async function hydrateIsland(
  element: Element,
  name: string,
  url: string,
  copy: IslandFailureCopy,
  options: HydrationOptions,
): Promise<void> {
  const load = importer(url, options.importModule ?? importModule);
  const loading = { ...options, chunk: name };
  let module: IslandModule;
  try {
    module = await loadChunk(load, loading);
  } catch (error) {
    // Stopped by the visitor's move to the next page: nothing failed that anyone will see.
    if (await wentWithThePage()) return;
    reportChunkFailure(error as ChunkLoadError, url);
    if (!element.hasAttribute(ISLAND_SCRIPT_ONLY_ATTR)) return;
    const restore = showIslandFailure(element, copy, async () => {
      let reloaded: IslandModule;
      try {
        reloaded = await loadChunk(load, loading);
      } catch (again) {
        reportChunkFailure(again as ChunkLoadError, url);
        window.location.reload();
        return;
      }
      restore();
      await hydrateMarker(element, reloaded.default);
    });
    return;
  }
  await hydrateMarker(element, module.default);
}

/**
 * Hydrates every island marker on the page whose module URL was given, once each: each marker
 * is its own React root with the identifierPrefix the server used, so useId matches. Each island
 * is loaded (already modulepreloaded) and hydrated in a task of its own, so start-up never
 * becomes one long main-thread task on a slow phone, and one island's stalled module holds up no
 * other. Resolves when every island has committed or shows its failure: the page is interactive.
 */
export async function hydrateIslands(
  urls: Record<string, string>,
  copy: IslandFailureCopy,
  options: HydrationOptions = {},
): Promise<void> {
  const settled: Promise<void>[] = [];
  for (const element of document.querySelectorAll(`[${ISLAND_ATTR}]`)) {
    const name = element.getAttribute(ISLAND_ATTR) ?? '';
    const url = urls[name];
    if (!url || hydrated.has(element)) continue;
    hydrated.add(element);
    await yieldToMain();
    settled.push(hydrateIsland(element, name, url, copy, options));
  }
  await Promise.all(settled);
}

import { type ComponentType, createElement, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { IslandRoot } from './island-root';
import { ISLAND_ATTR, ISLAND_PREFIX_ATTR, ISLAND_PROPS_ATTR } from './protocol';

type IslandModule = { default: ComponentType<never> };

const hydrated = new WeakSet<Element>();

/** Lets the browser paint and handle input between two pieces of start-up work. */
function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Hydrates every island marker on the page whose loader was given, once each: each marker is
 * its own React root with the identifierPrefix the server used, so useId matches. Each island
 * is loaded (already modulepreloaded) and hydrated in a task of its own, so start-up never
 * becomes one long main-thread task on a slow phone. Resolves when all have committed.
 */
export async function hydrateIslands(loaders: Record<string, () => Promise<IslandModule>>) {
  const committed: Promise<void>[] = [];
  for (const element of document.querySelectorAll(`[${ISLAND_ATTR}]`)) {
    const load = loaders[element.getAttribute(ISLAND_ATTR) ?? ''];
    if (!load || hydrated.has(element)) continue;
    hydrated.add(element);
    await yieldToMain();
    const { default: component } = await load();
    const props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTR) ?? '{}') as never;
    committed.push(
      new Promise<void>((onCommit) => {
        // As a transition, React renders the hydration in slices of a few milliseconds and
        // yields between them, so a tap or keystroke meanwhile is handled at once (and the
        // island it lands in is hydrated first) rather than after one long task.
        startTransition(() => {
          hydrateRoot(
            element,
            createElement(IslandRoot, { onCommit }, createElement(component, props)),
            {
              identifierPrefix: element.getAttribute(ISLAND_PREFIX_ATTR) ?? '',
            },
          );
        });
      }),
    );
  }
  // Resolves once every island has committed its hydration: the page is interactive.
  await Promise.all(committed);
}

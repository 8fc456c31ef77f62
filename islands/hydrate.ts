import { type ComponentType, createElement } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { ISLAND_ATTR, ISLAND_PREFIX_ATTR, ISLAND_PROPS_ATTR } from './protocol';

const hydrated = new WeakSet<Element>();

/**
 * Hydrates every island marker on the page whose component was loaded, once each: each marker
 * is its own React root with the identifierPrefix the server used, so useId matches.
 */
export function hydrateIslands(components: Record<string, ComponentType<never>>): void {
  for (const element of document.querySelectorAll(`[${ISLAND_ATTR}]`)) {
    const component = components[element.getAttribute(ISLAND_ATTR) ?? ''];
    if (!component || hydrated.has(element)) continue;
    hydrated.add(element);
    const props = JSON.parse(element.getAttribute(ISLAND_PROPS_ATTR) ?? '{}') as never;
    hydrateRoot(element, createElement(component, props), {
      identifierPrefix: element.getAttribute(ISLAND_PREFIX_ATTR) ?? '',
    });
  }
}

import {
  type ComponentProps,
  type ComponentType,
  createContext,
  createElement,
  useContext,
} from 'react';
import { renderToString } from 'react-dom/server';
import { IslandRoot } from '../../islands/island-root';
import {
  ISLAND_ATTR,
  ISLAND_PREFIX_ATTR,
  ISLAND_PROPS_ATTR,
  ISLAND_SCRIPT_ONLY_ATTR,
} from '../../islands/protocol';
import { ISLANDS, type IslandName, SCRIPT_ONLY_ISLANDS } from '../islands';

/** Collects the islands a page rendered, so the page's script imports exactly those. */
export class IslandCollector {
  readonly names = new Set<IslandName>();
  private count = 0;
  nextPrefix(): string {
    this.count += 1;
    return `i${this.count}-`;
  }
}

export const IslandContext = createContext<IslandCollector | null>(null);

/**
 * Server side of an island: its HTML rendered as an isolated root with its own identifierPrefix
 * (the same one the browser hydrates with), inside one marker element carrying name and props,
 * and whether its HTML needs its script (SCRIPT_ONLY_ISLANDS).
 */
export function Island<N extends IslandName>({
  name,
  props,
}: {
  name: N;
  props: ComponentProps<(typeof ISLANDS)[N]>;
}) {
  const collector = useContext(IslandContext);
  if (!collector) throw new Error('Island rendered outside a page');
  collector.names.add(name);
  const prefix = collector.nextPrefix();
  const component = ISLANDS[name] as ComponentType<object>;
  const html = renderToString(
    createElement(IslandRoot, null, createElement(component, props as object)),
    {
      identifierPrefix: prefix,
    },
  );
  const attributes = {
    [ISLAND_ATTR]: name,
    [ISLAND_PROPS_ATTR]: JSON.stringify(props),
    [ISLAND_PREFIX_ATTR]: prefix,
    ...(SCRIPT_ONLY_ISLANDS.has(name) ? { [ISLAND_SCRIPT_ONLY_ATTR]: '' } : {}),
  };
  return <div {...attributes} className="island" dangerouslySetInnerHTML={{ __html: html }} />;
}

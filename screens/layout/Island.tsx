import {
  type ComponentProps,
  type ComponentType,
  createContext,
  createElement,
  type ReactElement,
  type ReactNode,
  useContext,
} from 'react';
import { renderToReadableStream } from 'react-dom/server';
import { IslandRoot } from '../../islands/island-root';
import {
  ISLAND_ATTR,
  ISLAND_PREFIX_ATTR,
  ISLAND_PROPS_ATTR,
  ISLAND_SCRIPT_ONLY_ATTR,
} from '../../islands/protocol';
import { ISLANDS, type IslandName, SCRIPT_ONLY_ISLANDS } from '../islands';

/** The text of a rendered stream, read to its end. */
async function streamText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Collects the islands a page rendered, so the page's script imports exactly those, and renders
 * each island's own root once the page is rendered (fill). The page holds a mark where each goes:
 * React renders a root only asynchronously with its streaming renderer, and the worker bundles no
 * other (docs/performance.md, "The production worker"). A mark is a comment carrying a random
 * token of this page, so no text of the page (which React escapes) nor content can forge one.
 */
class IslandCollector {
  readonly names = new Set<IslandName>();
  private count = 0;
  private readonly roots = new Map<string, ReactElement>();
  private readonly token = crypto.randomUUID();

  nextPrefix(): string {
    this.count += 1;
    return `i${this.count}-`;
  }

  /** Keeps an island's root to render with `prefix`; what the page holds in its place. */
  hold(prefix: string, root: ReactElement): string {
    this.roots.set(prefix, root);
    return this.mark(prefix);
  }

  /** The page's HTML with each island's rendered in place of its mark. */
  async fill(html: string, onError?: (error: unknown) => void): Promise<string> {
    const rendered = await Promise.all(
      [...this.roots].map(async ([identifierPrefix, root]) => {
        const stream = await renderToReadableStream(root, { identifierPrefix, onError });
        // Whole before it is read: an island that loads a part lazily (the upsell's card form)
        // is drawn with that part in place, not a fallback that an inline script swaps later.
        await stream.allReady;
        return [identifierPrefix, await streamText(stream)] as const;
      }),
    );
    let filled = html;
    for (const [prefix, islandHtml] of rendered) {
      filled = filled.replace(this.mark(prefix), () => islandHtml);
    }
    return filled;
  }

  private mark(prefix: string): string {
    return `<!--island ${this.token} ${prefix}-->`;
  }
}

/**
 * A page's body rendered with its islands (each its own root, IslandCollector): the HTML, and the
 * islands it holds, whose modules the page loads. Rejects when the body or an island fails to
 * render.
 */
export async function renderWithIslands(
  body: ReactNode,
  onError?: (error: unknown) => void,
): Promise<{ html: string; islands: ReadonlySet<IslandName> }> {
  const islands = new IslandCollector();
  const stream = await renderToReadableStream(
    createElement(IslandContext.Provider, { value: islands }, body),
    { onError },
  );
  const html = await islands.fill(await streamText(stream), onError);
  return { html, islands: islands.names };
}

const IslandContext = createContext<IslandCollector | null>(null);

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
  const html = collector.hold(
    prefix,
    createElement(IslandRoot, null, createElement(component, props as object)),
  );
  const attributes = {
    [ISLAND_ATTR]: name,
    [ISLAND_PROPS_ATTR]: JSON.stringify(props),
    [ISLAND_PREFIX_ATTR]: prefix,
    ...(SCRIPT_ONLY_ISLANDS.has(name) ? { [ISLAND_SCRIPT_ONLY_ATTR]: '' } : {}),
  };
  return <div {...attributes} className="island" dangerouslySetInnerHTML={{ __html: html }} />;
}

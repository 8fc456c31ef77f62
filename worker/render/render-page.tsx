import { html, raw } from 'hono/html';
import type { ReactNode } from 'react';
import type { IslandFailureCopy, PageState } from '../../islands/protocol';
import type { IslandName } from '../../screens/islands';
import { renderWithIslands } from '../../screens/layout/Island';
import { criticalCss } from '../../screens/styles';
import type { Brand } from '../../shared/brand';
import { serializeJson } from '../../shared/serialize-json';
import type { Theme } from '../../shared/theme';
import { directionOf } from '../i18n';
import { keptOrMade } from '../kept';
import { clientChunk } from './client-build';
import { faviconHref } from './favicon';
import { htmlText } from './html-text';

/**
 * Hand-off to the page's script, omitted on pages that need no script (error pages): the state,
 * and the words shown in place of an island whose script did not load.
 */
type ScriptHandOff =
  | { state: PageState; islandFailure: IslandFailureCopy }
  | { state?: undefined; islandFailure?: undefined };

export type PageOptions = ScriptHandOff & {
  nonce: string;
  language: string;
  theme: Theme;
  /** Who the page speaks for: its tab icon and logo (shared/brand.ts). */
  brand: Brand;
  title: string;
  /** CSS of the screen's own area, inlined after the shared critical CSS. */
  screenCss?: string;
  status?: number;
  /**
   * The next screen, fetched ahead of time so moving on feels instant (SPEC.md §2). The page's
   * script asks for it after the first paint, so only a page with `state` prefetches.
   */
  prefetch?: string | null;
  /** The next screen's images, fetched ahead too, by the same script. */
  prefetchImages?: readonly string[];
  onError?: (error: unknown) => void;
};

const HEAD_META = html`<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`;

/**
 * The document up to <body>, written with hono/html (every value escaped). The style sheet goes
 * in raw: CSS of our own. Nothing in it asks for another file (afterPaintElements).
 */
function documentStart(options: {
  language: string;
  theme: Theme;
  brand: Brand;
  title: string;
  screenCss?: string;
}): string {
  const { language, theme, brand, title, screenCss } = options;
  const root = html`<html lang="${language}" dir="${directionOf(language)}" data-theme="${theme}">`;
  const icon = html`<link rel="icon" href="${faviconHref(brand.favicon)}" type="image/svg+xml">`;
  const css = criticalCss(theme, brand.logos.header, screenCss);
  return htmlText(
    html`<!doctype html>${root}<head>${HEAD_META}${icon}<meta name="application-name" content="${brand.name}"><title>${title}</title><style>${raw(css)}</style></head><body>`,
  );
}

/** An element the page's script adds to <head>: tag, attributes, and JSON for its text. */
type HeadElement = [tag: string, attributes: Record<string, string>, json?: unknown];

/**
 * What the page asks for once it has painted, as elements its script adds to <head>, with their
 * attributes as attributes (a script the page made itself carries its nonce as any script of
 * ours does): the modules, then the next screen and its images (SPEC.md §2). The next screen
 * waits for the paint too: a slow phone's first paint is held back by every request begun before
 * it, Lighthouse's simulated LCP counts them all, and this one prefetch put the landings and
 * checkouts at 1.3-1.4 times the static floor instead of 1.01-1.03 (same-run A/B, 5 rounds).
 *
 * Fetched ahead, not rendered ahead: a `prerender` rule (added once the page was interactive,
 * its boot held until the visitor arrived) was measured and gave nothing here. Chromium builds
 * no frame for a prerendered page until it is shown, so style, paint, raster and the first
 * frame still follow the tap, and the old page's renderer still makes a new WebView for the
 * move. Upsell's Skip to success's first paint, 10 alternating rounds: 180 ms prerendered,
 * 175 ms prefetched.
 */
function afterPaintElements(
  nonce: string,
  modules: string[],
  { prefetch, prefetchImages = [] }: Pick<PageOptions, 'prefetch' | 'prefetchImages'>,
): HeadElement[] {
  const elements: HeadElement[] = modules.map((href) => [
    'link',
    { rel: 'modulepreload', href, nonce },
  ]);
  if (prefetch) {
    const rules = { prefetch: [{ source: 'list', urls: [prefetch] }] };
    elements.push(['script', { type: 'speculationrules', nonce }, rules]);
  }
  for (const href of prefetchImages)
    elements.push(['link', { rel: 'prefetch', as: 'image', href }]);
  return elements;
}

/**
 * Elements added per task. Each request the browser sets up costs the main thread a few ms on a
 * CPU 4 times slower: a checkout's 46 elements at once made one task of about 340 ms there. Eight
 * at a time left the page's longest task at 54-89 ms on six screens (Lighthouse, 4x CPU, two runs
 * around one with four); four at a time, 50-64 ms, and no task of 50 ms on four of the six.
 */
const ELEMENTS_PER_TASK = 4;

function documentTail(options: PageOptions, islands: ReadonlySet<IslandName>) {
  if (options.state === undefined) return '</body></html>';
  const { nonce, state, islandFailure } = options;
  const scripts = pageScripts(islands);
  // JavaScript, not HTML: its only data is serializeJson's, which is safe inside a <script>.
  const elements = afterPaintElements(
    nonce,
    [
      ...scripts.preload,
      ...scripts.islands.map(({ url }) => url),
      ...(scripts.hydrate ? [scripts.hydrate] : []),
    ],
    options,
  );
  // Boot may first take over an account (islands/boot.ts): what follows waits for it.
  let code = `import("${scripts.boot}").then(({boot,markInteractive})=>Promise.resolve(boot(${serializeJson(state)})).then(()=>`;
  if (scripts.hydrate) {
    // React and the hydrator load after boot has run; it imports each island by its URL, each
    // in its own task, and shows islandFailure in place of one that will not load.
    const urls = Object.fromEntries(scripts.islands.map(({ name, url }) => [name, url]));
    code += `import("${scripts.hydrate}").then(h=>h.hydrateIslands(${serializeJson(urls)},${serializeJson(islandFailure)})).then(markInteractive)`;
  } else {
    code += 'markInteractive()';
  }
  code += '))';
  // Nothing is fetched before the first paint: the page is whole without script (every form
  // posts to the worker), and a request started earlier delays the paint on a slow phone
  // (Lighthouse's LCP counts every request begun before it). Once the browser reports a paint,
  // every module and the next screen are asked for, a few per task, and the modules run in
  // separate tasks. Not at load, which Chromium can fire before the first paint; a browser
  // without paint timing starts at load, and after 3 s any page starts, so a paint that is never
  // reported cannot leave it without its islands.
  const start =
    `const add=(t,a,x)=>{const e=document.createElement(t);for(const k in a)e.setAttribute(k,a[k]);if(x)e.textContent=JSON.stringify(x);document.head.append(e)};` +
    `let s=0;const go=()=>{if(s)return;s=1;const q=${serializeJson(elements)};` +
    `const step=()=>{for(const e of q.splice(0,${ELEMENTS_PER_TASK}))add(...e);if(q.length)setTimeout(step);else ${code}};step()};` +
    'if(PerformanceObserver.supportedEntryTypes?.includes("paint"))new PerformanceObserver(go).observe({type:"paint",buffered:true});else addEventListener("load",go);setTimeout(go,3e3);';
  return htmlText(
    html`<script type="module" nonce="${nonce}">${raw(start)}</script></body></html>`,
  );
}

/** A page's body as React rendered it, and the islands in it (their modules load after paint). */
export interface RenderedBody {
  html: string;
  islands: ReadonlySet<IslandName>;
}

/**
 * Renders a page's body to HTML. There is no Suspense boundary on any screen, so React has the
 * whole body when its shell is ready (nothing would reach the browser sooner by streaming it)
 * and writes no script of its own: a body holds no nonce, and one body can serve many requests
 * (./rendered-screens.ts). Rejects when the body fails to render, so the caller can answer with
 * an error page.
 */
export async function renderBody(
  body: ReactNode,
  onError?: (error: unknown) => void,
): Promise<RenderedBody> {
  return renderWithIslands(body, onError);
}

/** A body already encoded, in pieces sent one after the other (./rendered-screens.ts). */
export interface EncodedBody {
  bytes: readonly Uint8Array[];
  islands: ReadonlySet<IslandName>;
}

const encoder = new TextEncoder();

/** Heads kept per screen CSS, at most this many for each (languages, themes, titles). */
const HEADS_KEPT_PER_CSS = 64;
const encodedHeads = new Map<string, Map<string, Uint8Array>>();

/**
 * The document up to <body> as bytes, encoded once per language, theme, title and screen CSS:
 * the inline style sheet is most of it, and encoding it on every request cost the worker about a
 * tenth of its CPU for a landing (docs/performance.md, "A page's CPU on the server").
 */
function encodedHead(options: PageOptions): Uint8Array {
  const { language, theme, brand, title, screenCss = '' } = options;
  let heads = encodedHeads.get(screenCss);
  if (!heads) {
    heads = new Map();
    encodedHeads.set(screenCss, heads);
  }
  // A new override's titles make new heads: the oldest go first.
  const key = `${language}\n${theme}\n${brandId(brand)}\n${title}`;
  return keptOrMade(heads, HEADS_KEPT_PER_CSS, key, () =>
    encoder.encode(documentStart({ language, theme, brand, title, screenCss })),
  );
}

/** A number per brand object: a KV change's new brand makes new heads. */
const brandIds = new WeakMap<Brand, number>();
let lastBrandId = 0;

function brandId(brand: Brand): number {
  let id = brandIds.get(brand);
  if (id === undefined) {
    lastBrandId += 1;
    id = lastBrandId;
    brandIds.set(brand, id);
  }
  return id;
}

/** One array of the pieces, in order. */
function concatenated(pieces: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(pieces.reduce((length, piece) => length + piece.byteLength, 0));
  let offset = 0;
  for (const piece of pieces) {
    whole.set(piece, offset);
    offset += piece.byteLength;
  }
  return whole;
}

/**
 * A page from its rendered body, sent as a stream: the head (with inline critical CSS) as its
 * own first chunk, so the browser can start on the styles, then the body and one module script
 * that, after the first paint, imports only the islands the body holds.
 */
export function pageResponse(body: RenderedBody | EncodedBody, options: PageOptions): Response {
  const bodyBytes = 'bytes' in body ? body.bytes : [encoder.encode(body.html)];
  const tail = encoder.encode(documentTail(options, body.islands));
  // Each answer its own arrays: the kept ones are copied, never handed to the stream.
  const chunks = [encodedHead(options).slice(), concatenated([...bodyBytes, tail])];
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  return new Response(stream, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // Screens depend on the visitor (variant, language): never shared by caches.
      'cache-control': 'private, no-cache',
    },
  });
}

/** Renders a page (renderBody, then pageResponse). */
export async function renderPage(body: ReactNode, options: PageOptions): Promise<Response> {
  return pageResponse(await renderBody(body, options.onError), options);
}

/**
 * The page for an exception (SPEC.md §8: 'Unexpected Application Error!'), built without React
 * so it renders even when rendering is what failed.
 */
export function errorPage(options: {
  language: string;
  theme: Theme;
  brand: Brand;
  title: string;
  lead: string;
  action: string;
  retryUrl: string;
  requestId: string;
}): Response {
  const { language, theme, brand, title, lead, action, retryUrl, requestId } = options;
  const body = [
    html`<header class="top-bar"><span class="top-bar__logo" role="img" aria-label="${brand.name}"></span></header>`,
    html`<main class="page"><section class="screen"><h1>${title}</h1><p class="lead">${lead}</p>`,
    html`<a class="button button--primary" id="continue-button" href="${retryUrl}">${action}</a>`,
    html`<p class="lead"><small>Reference: ${requestId}</small></p></section></main></body></html>`,
  ];
  const page = documentStart({ language, theme, brand, title }) + htmlText(html`${body}`);
  return new Response(page, {
    status: 500,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

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
function pageScripts(islandNames: Iterable<IslandName>): PageScripts {
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

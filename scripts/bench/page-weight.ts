import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import { chromium, type Page, type Request } from 'playwright-core';
import type { Bindings } from '../../worker/env';
import { cookieKey } from '../../worker/request/cookies';
import { signCookie } from '../../worker/signing';
import { CHROMIUM_FLAGS } from '../chromium';

const RETURNING_ID = '5f0c6a8e-3b1d-4c2a-9e7f-1a2b3c4d5e6f';

/**
 * A returning visitor with a fixed uuid and variant: without these cookies the worker mints a
 * fresh uuid and Set-Cookie on every request, which is not the steady state we want to measure.
 * The variant is signed for the uuid as the development worker signs it: an unsigned one would
 * be cleared, with a warning, on every request.
 */
export const RETURNING_VISITOR = {
  Cookie: `userUuid=${RETURNING_ID}; gf_variant=${await signCookie(
    cookieKey({ ENVIRONMENT: 'development' } as Bindings) as string,
    'gf_variant',
    RETURNING_ID,
    'default',
  )}`,
};

/** Budget from the issue: each screen's HTML at most 12 KB once brotli-compressed. */
export const HTML_BROTLI_BUDGET = 12 * 1024;

function brotliSize(bytes: Uint8Array): number {
  return brotliCompressSync(bytes, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
  }).byteLength;
}

// ---------------------------------------------------------------------------------------------
// Page weight and script placement (pure, on the HTML text)

/**
 * Every JS URL the page loads without a visitor doing anything: each .js path its inline module
 * names (static imports, import() calls, the list it preloads after the first paint) and its
 * modulepreload links.
 */
function findModuleUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (scriptType(script[1] ?? '') !== 'module') continue;
    for (const specifier of (script[2] ?? '').matchAll(/["'](\/[^"']+\.js)["']/g)) {
      if (specifier[1]) urls.add(specifier[1]);
    }
  }
  for (const link of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = link[0];
    if (attribute(tag, 'rel') !== 'modulepreload') continue;
    const href = attribute(tag, 'href');
    if (href) urls.add(href);
  }
  return [...urls];
}

/**
 * The budget "JS after content": every script is deferred (module) or not JS at all
 * (speculation rules), and module scripts come after `</main>` so the content streams first.
 * Returns the problems found; empty means the budget holds.
 */
function scriptPlacementProblems(html: string): string[] {
  const problems: string[] = [];
  const mainEnd = html.indexOf('</main>');
  if (mainEnd === -1) problems.push('no </main>');
  for (const script of html.matchAll(/<script\b([^>]*)>/gi)) {
    const type = scriptType(script[1] ?? '');
    if (type === 'speculationrules') continue;
    if (type !== 'module') {
      problems.push(`blocking <script${type ? ` type=${type}` : ''}>`);
    } else if (mainEnd !== -1 && (script.index ?? 0) < mainEnd) {
      problems.push('module script before </main>');
    }
  }
  return problems;
}

function scriptType(attributes: string): string {
  return (attribute(`<script ${attributes}>`, 'type') ?? '').toLowerCase();
}

function attribute(tag: string, name: string): string | undefined {
  const match = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'));
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Page weight (I/O)

export interface PageWeight {
  status: number;
  htmlBytes: number;
  htmlBrotli: number;
  jsBrotli: number;
  jsFiles: number;
  problems: string[];
}

/** Brotli size per asset URL: shared chunks are fetched once for the whole run. */
export type AssetSizes = Map<string, Promise<number | string>>;

export async function weighPage(
  origin: URL,
  path: string,
  assets: AssetSizes,
): Promise<PageWeight> {
  const response = await fetch(new URL(path, origin), { headers: RETURNING_VISITOR });
  const html = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(html);
  const problems = scriptPlacementProblems(text);
  let jsBrotli = 0;
  const urls = findModuleUrls(text);
  for (const url of urls) {
    let size = assets.get(url);
    if (!size) {
      size = fetchAssetBrotli(new URL(url, origin));
      assets.set(url, size);
    }
    const result = await size;
    if (typeof result === 'string') problems.push(result);
    else jsBrotli += result;
  }
  return {
    status: response.status,
    htmlBytes: html.byteLength,
    htmlBrotli: brotliSize(html),
    jsBrotli,
    jsFiles: urls.length,
    problems,
  };
}

/** The brotli size, or a problem to show when the asset is not served. */
async function fetchAssetBrotli(url: URL): Promise<number | string> {
  const response = await fetch(url);
  const body = new Uint8Array(await response.arrayBuffer());
  return response.ok ? brotliSize(body) : `${response.status} ${url.pathname}`;
}

// ---------------------------------------------------------------------------------------------
// The landing's JavaScript as Chromium loads it on a phone

/** The landing loads at most this much JavaScript on a phone, brotli 11, as Chromium fetches it. */
export const LANDING_JS_BROTLI_BUDGET = 80 * 1024;

/** A phone as Chromium's device mode has one: a visitor's Chrome on Android, first visit. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)' +
    ' Chrome/131.0.0.0 Mobile Safari/537.36',
};

/** One script the page fetched: its path and brotli-11 size. */
export interface LoadedScript {
  path: string;
  brotli: number;
}

export interface LandingJs {
  /** Every script the page fetched until it was idle with nothing in flight, largest first. */
  scripts: LoadedScript[];
  brotli: number;
  /** What typing a local number into the phone field fetched on top (not in the budget). */
  typing: { scripts: LoadedScript[]; brotli: number };
}

/** A page that never settles (a build the worker does not match, a script that hangs) fails. */
const SETTLE_LIMIT_MS = 60_000;

/**
 * Run in the page, as text (this file sees no DOM types): resolves once the islands have
 * hydrated (boot's `data-booted`), the load event has passed and the main thread has been idle
 * twice, so the tracker's idle-time import (islands/analytics/start.ts) has been asked for.
 */
const IN_PAGE_SETTLED = `new Promise((resolve, reject) => {
  setTimeout(() => reject(new Error('the page never hydrated and idled')), ${SETTLE_LIMIT_MS});
  const idle = (then) => requestIdleCallback(() => then(), { timeout: 5000 });
  const booted = () => document.documentElement.dataset.booted === 'yes';
  const check = () => {
    if (document.readyState !== 'complete' || !booted()) return setTimeout(check, 50);
    idle(() => idle(resolve));
  };
  check();
})`;

/**
 * What a phone pays for as script: every script, and the data scripts fetch from the build (the
 * phone form's numbering zones, islands/phone/zone-metadata.ts).
 */
function isWeighed(request: Request): boolean {
  const type = request.resourceType();
  if (type === 'script') return true;
  const { pathname } = new URL(request.url());
  return type === 'fetch' && request.method() === 'GET' && /^\/assets\/.+\.json$/.test(pathname);
}

/** Each weighed file's brotli size as it arrives, and whether one is still on its way. */
function watchFetches(page: Page) {
  const bodies = new Map<string, Promise<number>>();
  let inFlight = 0;
  page.on('request', (request) => {
    if (isWeighed(request)) inFlight++;
  });
  page.on('requestfailed', (request) => {
    if (isWeighed(request)) inFlight--;
  });
  page.on('requestfinished', (request) => {
    if (!isWeighed(request)) return;
    bodies.set(
      new URL(request.url()).pathname,
      request
        .response()
        .then(async (response) => brotliSize((await response?.body()) ?? new Uint8Array()))
        .finally(() => inFlight--),
    );
  });
  return { bodies, quiet: () => inFlight === 0 };
}

/** Hydrated, idle twice over and nothing in flight: a script asked for at idle has come. */
async function settle(page: Page, watch: ReturnType<typeof watchFetches>, what: string) {
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  const inTime = () => {
    if (Date.now() > deadline) throw new Error(`${what} never settled: hydrated, idle, quiet`);
  };
  for (let round = 0; round < 2; round++) {
    await page.evaluate(IN_PAGE_SETTLED);
    for (inTime(); !watch.quiet(); inTime()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The files fetched but not in `before`, largest first, with their sum. */
async function weighed(
  bodies: ReadonlyMap<string, Promise<number>>,
  before: ReadonlySet<string> = new Set(),
): Promise<{ scripts: LoadedScript[]; brotli: number }> {
  const scripts: LoadedScript[] = [];
  for (const [script, size] of bodies) {
    if (!before.has(script)) scripts.push({ path: script, brotli: await size });
  }
  scripts.sort((a, b) => b.brotli - a.brotli);
  return { scripts, brotli: scripts.reduce((sum, script) => sum + script.brotli, 0) };
}

/**
 * The landing's JavaScript as a first-time visitor's phone loads it: every script response
 * Chromium gets (module scripts, their imports, lazy imports at idle), each body compressed with
 * brotli 11 as the edge serves it. `country` is the visitor's (the CF-IPCountry header the
 * production worker reads where the runtime gives no `request.cf`). Then, apart, what typing
 * `localNumber` into the phone field adds: the phone rules and their numbering zone.
 */
export async function weighLandingJs(
  origin: URL,
  { path, country, localNumber }: { path: string; country: string; localNumber: string },
  chromePath: string,
): Promise<LandingJs> {
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
    headless: true,
  });
  try {
    const context = await browser.newContext({
      ...PHONE,
      extraHTTPHeaders: { 'CF-IPCountry': country },
    });
    const page = await context.newPage();
    const watch = watchFetches(page);
    await page.goto(new URL(path, origin).href, { waitUntil: 'load' });
    await settle(page, watch, path);
    const atLoad = await weighed(watch.bodies);
    await page.locator('.phone-form input[type="tel"]').pressSequentially(localNumber);
    await settle(page, watch, `${path} with a number typed`);
    const typing = await weighed(watch.bodies, new Set(atLoad.scripts.map(({ path }) => path)));
    return { ...atLoad, typing };
  } finally {
    await browser.close();
  }
}

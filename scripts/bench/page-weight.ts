import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import type { Bindings } from '../../worker/env';
import { cookieKey } from '../../worker/request/cookies';
import { signCookie } from '../../worker/signing';

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

import { html, raw } from 'hono/html';
import { type HtmlFragment, htmlText } from '../render/html-text';

/**
 * A small server-written HTML page with no React and at most one module script: the test
 * gateway's pages and the deeplink login answers. The worker's security headers (CSP with the
 * response's nonce) apply to it like to every page.
 */
export interface PlainPage {
  language?: string;
  title: string;
  /** The body, written with hono/html's `html` template (which escapes what it is given). */
  body: HtmlFragment;
  /** The page's own style sheet, a constant of its module. */
  css: string;
  /** The built module to run, with the CSP nonce of this response. */
  script?: { url: string; nonce: string };
  /** `data-*` attributes of <body>, for the script. */
  data?: Record<string, string>;
}

export function plainPageHtml(page: PlainPage): string {
  const data = Object.entries(page.data ?? {}).map(
    ([name, value]) => html` data-${name}="${value}"`,
  );
  const script = page.script
    ? html`<script type="module" nonce="${page.script.nonce}" src="${page.script.url}"></script>`
    : '';
  return htmlText(html`<!doctype html>
<html lang="${page.language ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${page.title}</title>
<style>${raw(page.css)}</style>
</head>
<body${data}>${page.body}${script}</body>
</html>`);
}

/** Pages that depend on state (a token, an intent) are never cached. */
export const PLAIN_PAGE_HEADERS = { 'cache-control': 'no-store' } as const;

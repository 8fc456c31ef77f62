import { escapeHtml } from '../../shared/serialize-json';

/**
 * A small server-written HTML page with no React and at most one module script: the test
 * gateway's pages and the deeplink login answers. The worker's security headers (CSP with the
 * response's nonce) apply to it like to every page.
 */
export interface PlainPage {
  language?: string;
  title: string;
  /** Trusted HTML of the body; every value in it must already be escaped. */
  body: string;
  css: string;
  /** The built module to run, with the CSP nonce of this response. */
  script?: { url: string; nonce: string };
  /** `data-*` attributes of <body>, for the script (values are escaped here). */
  data?: Record<string, string>;
}

export function plainPageHtml(page: PlainPage): string {
  const data = Object.entries(page.data ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  const script = page.script
    ? `<script type="module" nonce="${escapeHtml(page.script.nonce)}" src="${escapeHtml(page.script.url)}"></script>`
    : '';
  return (
    `<!doctype html><html lang="${escapeHtml(page.language ?? 'en')}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(page.title)}</title><style>${page.css}</style></head>` +
    `<body${data}>${page.body}${script}</body></html>`
  );
}

/** Pages that depend on state (a token, an intent) are never cached. */
export const PLAIN_PAGE_HEADERS = { 'cache-control': 'no-store' } as const;

import type { Handler } from 'hono';
import { html } from 'hono/html';
import { DEFAULT_BRANDS } from '../../shared/brand';
import { DEFAULT_THEME } from '../../shared/theme';
import { clientChunk } from '../render/client-build';
import { faviconHref } from '../render/favicon';
import { htmlText } from '../render/html-text';
import type { ConsoleEnv } from '../request/envs';
import { PLAIN_PAGE_HEADERS } from '../routes/plain-page';

/** The console's browser entry (vite.config.ts); Vite's manifest names its script and style. */
const CONSOLE_ENTRY = 'console/main.tsx';

/** The entry's imports, depth first, each once: fetched at once rather than one after another. */
function importedFiles(key: string, into: Set<string>): Set<string> {
  for (const dependency of clientChunk(key).imports ?? []) {
    const { file } = clientChunk(dependency);
    if (into.has(file)) continue;
    into.add(file);
    importedFiles(dependency, into);
  }
  return into;
}

/**
 * GET /console: the marketers' console's page, a shell the console's script (console/main.tsx)
 * draws into `#console-root`. Everything it shows comes from `/console/api/*`, so the page
 * itself holds nothing but the built files' names and this response's CSP nonce.
 */
export const consolePage: Handler<ConsoleEnv> = (c) => {
  const nonce = c.get('nonce');
  const entry = clientChunk(CONSOLE_ENTRY);
  const styles = (entry.css ?? []).map((file) => html`<link rel="stylesheet" href="/${file}">`);
  const preloads = [...importedFiles(CONSOLE_ENTRY, new Set())].map(
    (file) => html`<link rel="modulepreload" href="/${file}" nonce="${nonce}">`,
  );
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>Geofunnel console</title>
<link rel="icon" href="${faviconHref(DEFAULT_BRANDS[DEFAULT_THEME].favicon)}" type="image/svg+xml">
${styles}${preloads}
</head>
<body>
<div id="console-root"><p>Loading the console…</p><noscript><p>The console needs JavaScript: turn it on for this site and reload the page.</p></noscript></div>
<script type="module" nonce="${nonce}" src="/${entry.file}"></script>
</body>
</html>`;
  return c.html(htmlText(page), 200, PLAIN_PAGE_HEADERS);
};

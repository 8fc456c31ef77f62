import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import manifest from '#client-manifest';
import { consolePage } from '../../../worker/console/page';
import type { ConsoleEnv } from '../../../worker/request/envs';

/** The console's built entry as `npm run build` wrote it (the page names these files). */
const entry = manifest['console/main.tsx'];

function consoleApp() {
  const app = new Hono<ConsoleEnv>();
  app.use(async (c, next) => {
    c.set('nonce', 'n0nce+/=');
    await next();
  });
  app.get('/console', consolePage);
  return app;
}

describe('the console’s page (GET /console)', () => {
  it('is an English shell with the console’s own script and style sheet, never cached', async () => {
    const response = await consoleApp().request('/console');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<title>Geofunnel console</title>');
    expect(page).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect(page).toMatch(/<div id="console-root">.*<noscript>.*JavaScript.*<\/noscript><\/div>/s);
    expect(entry?.css?.length).toBeGreaterThan(0);
    for (const css of entry?.css ?? [])
      expect(page).toContain(`<link rel="stylesheet" href="/${css}">`);
    // The nonce is escaped like any value (hono/html), and is on every script the page loads.
    expect(page).toContain(
      `<script type="module" nonce="n0nce+/=" src="/${entry?.file}"></script>`,
    );
    const scripts = page.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(1);
    for (const preload of page.match(/<link rel="modulepreload"[^>]*>/g) ?? []) {
      expect(preload).toContain('nonce="n0nce+/="');
    }
  });

  it('loads none of the funnel’s islands or boot code', async () => {
    const page = await (await consoleApp().request('/console')).text();
    const loaded = [...page.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    const funnelEntries = Object.entries(manifest)
      .filter(([key]) => key.startsWith('islands/'))
      .map(([, chunk]) => chunk.file);
    expect(loaded.length).toBeGreaterThan(1);
    expect(loaded.filter((file) => funnelEntries.includes(file as string))).toEqual([]);
  });
});

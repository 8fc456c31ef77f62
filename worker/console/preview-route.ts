import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { endPreview, previewKey, startPreview } from '../funnel/preview-cookie';
import { consoleError } from './errors';

/** Where ending a preview leads: back to the console the link came from. */
const CONSOLE_HOME = '/console';

/**
 * The console's preview links, mounted at CONSOLE_PREVIEW_PATH behind the console's Access
 * check: `GET /{variant}` (a variant key, its '/' as is or as %2F) starts a preview of that
 * variant and opens the first screen of its flow; `GET /?end=1` ends the preview. A preview
 * assigns nothing (no `gf_variant`), and the pages it shows send nothing to analytics or the ad
 * networks (worker/middleware/split-test.ts, worker/routes/screens.tsx).
 */
export function previewRoutes(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const routes = new Hono<AppEnv>();

  routes.get('/', (c) => {
    if (c.req.query('end') === undefined) return consoleError(c, 404, 'unknown_variant');
    endPreview(c);
    c.header('Cache-Control', 'no-store');
    return c.redirect(CONSOLE_HOME, 303);
  });

  routes.get('/:variant{.+}', async (c) => {
    const key = previewKey(c.env);
    if (key === null) return consoleError(c, 503, 'console_not_configured');
    const variant = c.req.param('variant');
    if (!Object.hasOwn(c.get('config').split.variants, variant)) {
      return consoleError(c, 404, 'unknown_variant');
    }
    await startPreview(c, key, variant, now());
    const fields = c.get('logFields');
    if (fields) fields.preview = variant;
    c.header('Cache-Control', 'no-store');
    // The link's query goes along, so `?theme=fl` or `?custom_lng=de` previews in that look.
    return c.redirect(`/${new URL(c.req.url).search}`, 303);
  });

  return routes;
}

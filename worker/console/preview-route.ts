import { Hono } from 'hono';
import { consoleError } from '../http/console-errors';
import { endPreview, previewKey, startPreview, verifyPreviewLink } from '../preview/preview';
import { storedOrNewVisitorId } from '../request/cookies';
import type { ConsoleEnv } from '../request/envs';
import { DRAFT_PARAMETER, followDraftLink } from '../translations/source';

/** Where ending a preview leads: back to the console the link came from. */
const CONSOLE_HOME = '/console';

/**
 * The console's preview links, mounted at CONSOLE_PREVIEW_PATH behind the console's Access
 * check: `GET /{variant}` (a variant key, its '/' as is or as %2F) starts a preview of that
 * variant and opens the first screen of its flow; `GET /?route={token}` does the same for the
 * route a signed token names (the link of the console's "test a visitor",
 * worker/console/route-test.ts); `GET /?end=1` ends the preview. A preview assigns nothing (no
 * `gf_variant`, `gf_route` or `gf_touch`), and the pages it shows send nothing to analytics or
 * the ad networks (worker/request/visit-facts.ts, worker/routes/screens/).
 *
 * The links open in any browser of a marketer's with console access; the cookie each sets is
 * bound to the visitor id of the browser that opened it and to the marketer Access let in, so
 * its value copied into another browser, or lent with the visitor id to someone who is not
 * signed in as that marketer, previews nothing there (worker/request/visit-facts.ts). A browser that never
 * opened the funnel on this host gets its id in this answer, so the page after the redirect
 * brings the id the cookie was signed for.
 */
export function previewRoutes(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const routes = new Hono<ConsoleEnv>();

  /**
   * `?end=1` ends the preview. `?route=`: the link's token was signed by the route test an hour
   * at most ago; the cookie gets an hour of its own from now. The rest of the link's query is the tested ad link's, so the page sees
   * its UTM parameters as the visitor would (and, being a preview, keeps none of them).
   */
  routes.get('/', async (c) => {
    const token = c.req.query('route');
    if (token === undefined) {
      if (c.req.query('end') === undefined) return consoleError(c, 404, 'unknown_variant');
      endPreview(c);
      c.header('Cache-Control', 'no-store');
      return c.redirect(CONSOLE_HOME, 303);
    }
    const key = previewKey(c.env);
    if (key === null) return consoleError(c, 503, 'console_not_configured');
    const verdict = await verifyPreviewLink(key, token, now());
    if (!verdict.ok || !('route' in verdict)) return consoleError(c, 404, 'unknown_route');
    await startPreview(c, key, verdict.route, {
      holder: { visitorId: storedOrNewVisitorId(c), author: c.get('consoleAuthor') },
      nowMs: now(),
    });
    await followDraftLink(c, c.req.header('Cookie'), key, undefined, now());
    const fields = c.get('logFields');
    if (fields) fields.preview = `route:${verdict.route.id}`;
    const query = new URL(c.req.url).searchParams;
    query.delete('route');
    const search = query.toString();
    c.header('Cache-Control', 'no-store');
    return c.redirect(search ? `/?${search}` : '/', 303);
  });

  routes.get('/:variant{.+}', async (c) => {
    const key = previewKey(c.env);
    if (key === null) return consoleError(c, 503, 'console_not_configured');
    const variant = c.req.param('variant');
    if (!Object.hasOwn(c.get('config').split.variants, variant)) {
      return consoleError(c, 404, 'unknown_variant');
    }
    await startPreview(c, key, variant, {
      holder: { visitorId: storedOrNewVisitorId(c), author: c.get('consoleAuthor') },
      nowMs: now(),
    });
    // The Copy area's links carry a draft to show; any other link shows the live copy.
    const query = new URL(c.req.url).searchParams;
    await followDraftLink(
      c,
      c.req.header('Cookie'),
      key,
      query.get(DRAFT_PARAMETER) ?? undefined,
      now(),
    );
    query.delete(DRAFT_PARAMETER);
    const fields = c.get('logFields');
    if (fields) fields.preview = variant;
    c.header('Cache-Control', 'no-store');
    // The link's query goes along, so `?theme=fl` or `?custom_lng=de` previews in that look.
    const search = query.toString();
    return c.redirect(search ? `/?${search}` : '/', 303);
  });

  return routes;
}

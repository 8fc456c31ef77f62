import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describeError, logError } from '../../shared/log';
import { isJsonRequest } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from './envs';
import { sameOriginOnly } from './same-origin';

/**
 * Four sections of at most 64 KiB each (CONFIG_MAX_BYTES), with a note and the JSON around them:
 * anything larger is not ours.
 */
const MAX_BODY_BYTES = (4 * 64 + 16) * 1024;

/**
 * What every console request passes before its handler (worker/console/routes.ts), after the
 * Access check its sub-app runs (worker/sub-apps/console.ts): no caching, and for its calls the
 * same-origin rule, the body limit and JSON only; and what a failing store answers. The request's
 * checks, before any of the console's own code.
 */
export function guardConsole(app: Hono<ConsoleEnv>): void {
  app.use('*', async (c, next) => {
    await next();
    // One marketer's view of the config: never kept by a browser or a cache.
    c.header('Cache-Control', 'no-store');
  });
  // A console token's request is a tool's, not a browser's: it carries its credential in a
  // header no cross-site page can make a browser send, so the same-origin rule is not its guard.
  const sameOrigin = sameOriginOnly<ConsoleEnv>((c) => consoleError(c, 403, 'cross_origin'));
  app.use('/api/*', (c, next) => (c.get('consoleToken') ? next() : sameOrigin(c, next)));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => consoleError(c, 413, 'bad_request') }),
  );
  // JSON bodies only, as on /api: the content types a cross-site form can send never reach a
  // handler, even should a browser's Sec-Fetch-Site be missing.
  app.on(['POST', 'PUT'], '/api/*', async (c, next) => {
    if (!isJsonRequest(c.req.raw)) return consoleError(c, 415, 'bad_request');
    await next();
  });
  // Reading or writing the history failed: nothing was published (publish.ts takes a claimed
  // version back when KV refuses it), and the marketer is told to try again.
  app.onError((error, c) => {
    logError('config_store_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });
}

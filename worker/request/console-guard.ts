import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AD_COSTS_MAX_BYTES } from '../../shared/console-api/ad-costs';
import { AD_COSTS_CSV_TYPE, CONSOLE_API } from '../../shared/console-api/config';
import { describeError, logError } from '../../shared/log';
import { isJsonRequest, mediaTypeOf } from '../http/api-json';
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
  const tooLarge = (c: Context<ConsoleEnv>) => consoleError(c, 413, 'bad_request');
  const configLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  // An ad costs import is up to 5,000 rows, a file or their JSON (shared/console-api/ad-costs.ts).
  const adCostsLimit = bodyLimit({ maxSize: AD_COSTS_MAX_BYTES, onError: tooLarge });
  app.use('/api/*', (c, next) =>
    c.req.path === CONSOLE_API.adCosts ? adCostsLimit(c, next) : configLimit(c, next),
  );
  // JSON bodies only, as on /api: the content types a cross-site form can send never reach a
  // handler, even should a browser's Sec-Fetch-Site be missing. The ad costs' CSV file is no
  // such type either: a form cannot send text/csv, and a cross-site fetch of it is preflighted,
  // which the worker never allows.
  app.on(['POST', 'PUT'], '/api/*', async (c, next) => {
    const csv = c.req.path === CONSOLE_API.adCosts && mediaTypeOf(c.req.raw) === AD_COSTS_CSV_TYPE;
    if (!csv && !isJsonRequest(c.req.raw)) return consoleError(c, 415, 'bad_request');
    await next();
  });
  // Reading or writing the history failed: nothing was published (publish.ts takes a claimed
  // version back when KV refuses it), and the marketer is told to try again.
  app.onError((error, c) => {
    logError('config_store_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });
}

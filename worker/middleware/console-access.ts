import type { MiddlewareHandler } from 'hono';
import { describeError, logError } from '../../shared/log';
import type { AccessCheck, AccessRefusalCode } from '../access/console-access';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/** The console's answers to a request Access did not vouch for. */
const ACCESS_REFUSALS = {
  console_not_configured: 503,
  access_token_missing: 401,
  access_token_invalid: 403,
} as const satisfies Record<AccessRefusalCode, number>;

/**
 * Guards every console request with `check` (worker/access/console-access.ts accessCheck): who passes
 * is the console's author; a refusal is answered and logged with its code and a short reason,
 * never the token.
 */
export function consoleAccess(check: AccessCheck): MiddlewareHandler<ConsoleEnv> {
  return async function consoleAccessMiddleware(c, next) {
    const verdict = await check(c.env, c.req.raw);
    if (!verdict.ok) {
      const { code, reason, cause } = verdict;
      logError(code, {
        id: c.get('requestId'),
        path: c.req.path,
        reason,
        ...(cause === undefined ? {} : { detail: describeError(cause) }),
      });
      return consoleError(c, ACCESS_REFUSALS[code], code);
    }
    c.set('consoleAuthor', verdict.author);
    // Optional: a test app may mount the console without the request log.
    const fields = c.get('logFields');
    if (fields) fields.console_author = verdict.author;
    await next();
  };
}

import type { Handler } from 'hono';
import { consoleError } from '../http/console-errors';
import { refusedFor } from '../pictures/limits';
import type { RateRule } from '../rate-limits/rate-limiter';
import type { ConsoleEnv } from '../request/envs';

/**
 * Middleware counting each console author's writes (every method but GET) against `rule`:
 * past it, 429 rate_limited with Retry-After, nothing written. A person's or a token's author
 * alike, so a runaway script or a stolen session is stopped at the call it floods.
 */
export function writesPerAuthor(rule: RateRule & { name: string }): Handler<ConsoleEnv> {
  return async function limitWrites(c, next) {
    if (c.req.method === 'GET') return next();
    const wait = await refusedFor(c.env.RATE_LIMITER, rule, c.get('consoleAuthor'));
    if (wait === null) return next();
    c.header('Retry-After', String(wait));
    return consoleError(c, 429, 'rate_limited');
  };
}

import type { Context, MiddlewareHandler } from 'hono';
import { tokenAuthor } from '../../shared/console-api/tokens';
import { describeError, logError, logWarning } from '../../shared/log';
import type { AccessCheck, AccessRefusalCode, AccessVerdict } from '../access/console-access';
import { presentedToken, TOKEN_CALLS_PER_ADDRESS, tokenStoreOf } from '../access/console-tokens';
import { tokenNeeds } from '../access/token-scopes';
import { consoleError } from '../http/console-errors';
import { refusedFor } from '../pictures/limits';
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
 * never the token. A request that brings a console token (`Authorization: Bearer`) is that
 * token's, within what its scopes allow (worker/access/token-scopes.ts), once Access let it
 * through: as a person or, for a tool, as an Access service token.
 */
export function consoleAccess(check: AccessCheck): MiddlewareHandler<ConsoleEnv> {
  return async function consoleAccessMiddleware(c, next) {
    const verdict = await check(c.env, c.req.raw);
    const presented = presentedToken(c.req.raw);
    if (presented !== undefined && (verdict.ok || verdict.service !== undefined)) {
      return tokenRequest(c, next, presented);
    }
    if (!verdict.ok) return refuseAccess(c, verdict);
    c.set('consoleAuthor', verdict.author);
    // Optional: a test app may mount the console without the request log.
    const fields = c.get('logFields');
    if (fields) fields.console_author = verdict.author;
    await next();
  };
}

function refuseAccess(c: Context<ConsoleEnv>, verdict: AccessVerdict & { ok: false }) {
  const { code, reason, cause } = verdict;
  logError(code, {
    id: c.get('requestId'),
    path: c.req.path,
    reason,
    ...(cause === undefined ? {} : { detail: describeError(cause) }),
  });
  return consoleError(c, ACCESS_REFUSALS[code], code);
}

/**
 * A console token's request: refused when the address sends too many, when the token does not
 * work (malformed, unknown, revoked: one answer for all), or when the call is not one a token
 * makes or its scopes allow; else its author is `token:<name>`, on the request's log line too.
 */
async function tokenRequest(
  c: Context<ConsoleEnv>,
  next: () => Promise<void>,
  presented: string,
): Promise<Response | undefined> {
  const address = c.req.header('cf-connecting-ip') ?? 'unknown';
  const wait = await refusedFor(c.env.RATE_LIMITER, TOKEN_CALLS_PER_ADDRESS, address);
  if (wait !== null) {
    c.header('Retry-After', String(wait));
    return consoleError(c, 429, 'rate_limited');
  }
  const holder = await tokenStoreOf(c.env).holderOf(presented);
  if (holder === null) {
    logWarning('console_token_refused', { id: c.get('requestId'), path: c.req.path });
    return consoleError(c, 401, 'token_invalid');
  }
  const author = tokenAuthor(holder.name);
  const fields = c.get('logFields');
  if (fields) {
    fields.console_author = author;
    fields.console_token = holder.name;
  }
  const need = tokenNeeds(c.req.method, c.req.path);
  if (need === 'never') return consoleError(c, 403, 'token_not_allowed');
  const scope = need === 'draft' ? 'read' : need;
  if (!holder.scopes.includes(scope)) return consoleError(c, 403, 'token_scope');
  c.set('consoleAuthor', author);
  c.set('consoleToken', holder);
  await next();
}

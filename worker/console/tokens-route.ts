import { Hono } from 'hono';
import {
  TOKEN_NAME,
  TOKEN_SCOPES,
  type TokenCreatedAnswer,
  type TokenCreateRequest,
  type TokenRevokeRequest,
  type TokensAnswer,
} from '../../shared/console-api/tokens';
import { tokenStoreOf } from '../access/console-tokens';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { RateRule } from '../rate-limits/rate-limiter';
import type { ConsoleEnv } from '../request/envs';
import { writesPerAuthor } from './author-writes';

/**
 * Tokens made or revoked per person: a team makes a handful; a stolen session making hundreds
 * is stopped here.
 */
const TOKEN_CHANGES_PER_AUTHOR: RateRule & { name: string } = {
  name: 'console_token_changes_per_author',
  limit: 20,
  windowMs: 60 * 60_000,
};

/** The name and scopes of a TokenCreateRequest, or null when the body is not one. */
function createRequestOf(body: unknown): TokenCreateRequest | null {
  if (typeof body !== 'object' || body === null) return null;
  const { name, scopes } = body as { name?: unknown; scopes?: unknown };
  if (typeof name !== 'string' || !TOKEN_NAME.test(name)) return null;
  if (!Array.isArray(scopes) || scopes.length === 0) return null;
  if (!scopes.every((scope) => (TOKEN_SCOPES as readonly unknown[]).includes(scope))) return null;
  return { name, scopes: TOKEN_SCOPES.filter((scope) => scopes.includes(scope)) };
}

function nameOf(body: unknown): TokenRevokeRequest['name'] | null {
  if (typeof body !== 'object' || body === null) return null;
  const { name } = body as { name?: unknown };
  return typeof name === 'string' && TOKEN_NAME.test(name) ? name : null;
}

/**
 * /console/api/tokens (CONSOLE_TOKENS_API), people only (worker/access/token-scopes.ts refuses
 * every token here): GET the tokens; POST a new one, its secret answered this once; POST
 * /revoke `{name}`, which stops it at once.
 */
export function tokensRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();
  routes.get('/', async (c) => {
    const tokens = await tokenStoreOf(c.env).list();
    return c.json({ ok: true, tokens } satisfies TokensAnswer);
  });
  routes.use('*', writesPerAuthor(TOKEN_CHANGES_PER_AUTHOR));
  routes.post('/', async (c) => {
    const request = createRequestOf(await readJsonBody(c.req.raw));
    if (request === null) return consoleError(c, 400, 'bad_request');
    const at = new Date(options.now()).toISOString();
    const made = await tokenStoreOf(c.env).create(
      request.name,
      request.scopes,
      c.get('consoleAuthor'),
      at,
    );
    if (made === null) return consoleError(c, 409, 'token_name_taken');
    c.get('logFields').console_token = request.name;
    return c.json({ ok: true, ...made } satisfies TokenCreatedAnswer, 201);
  });
  routes.post('/revoke', async (c) => {
    const name = nameOf(await readJsonBody(c.req.raw));
    if (name === null) return consoleError(c, 400, 'bad_request');
    const at = new Date(options.now()).toISOString();
    if (!(await tokenStoreOf(c.env).revoke(name, c.get('consoleAuthor'), at))) {
      return consoleError(c, 404, 'unknown_token');
    }
    c.get('logFields').console_token = name;
    return c.json({ ok: true });
  });
  return routes;
}

import { Hono } from 'hono';
import { tokenCreateRequest, tokenRevokeRequest } from '../../shared/console-api/request-schemas';
import {
  TOKEN_SCOPES,
  type TokenCreatedAnswer,
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
    const parsed = tokenCreateRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    // Each scope once, in the table's order, however the request listed them.
    const scopes = TOKEN_SCOPES.filter((scope) => parsed.data.scopes.includes(scope));
    const request = { name: parsed.data.name, scopes };
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
    const parsed = tokenRevokeRequest.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return consoleError(c, 400, 'bad_request');
    const { name } = parsed.data;
    const at = new Date(options.now()).toISOString();
    if (!(await tokenStoreOf(c.env).revoke(name, c.get('consoleAuthor'), at))) {
      return consoleError(c, 404, 'unknown_token');
    }
    c.get('logFields').console_token = name;
    return c.json({ ok: true });
  });
  return routes;
}

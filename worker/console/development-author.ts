import type { MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import type { ConsoleEnv } from '../request/envs';

/**
 * Who the console takes you for under `npm start`, where nobody signs in: `local@geofunnel.dev`
 * unless this browser chose another name with `/console?as=bob@example.com`, so two browsers can
 * be two people (a review needs a second one: docs/marketers.md, "Working as a team"). Only
 * exactly ENVIRONMENT=development reads or sets it; everywhere else the author is Access's
 * (worker/console/access.ts) and the cookie is ignored.
 */

export const DEVELOPMENT_AUTHOR_COOKIE = 'gf_console_as';

/** An address as a name: something@something, no spaces, short. */
const ADDRESS = /^[^\s@;,"]{1,100}@[^\s@;,"]{1,100}$/;

/** The name this browser chose, or null when none (or not an address). */
export function chosenDevelopmentAuthor(request: Request): string | null {
  const chosen = parse(request.headers.get('cookie') ?? '', DEVELOPMENT_AUTHOR_COOKIE)[
    DEVELOPMENT_AUTHOR_COOKIE
  ];
  return chosen !== undefined && ADDRESS.test(chosen) ? chosen : null;
}

/** GET /console?as=…: under `npm start`, this browser is that person from now on. */
export const chooseDevelopmentAuthor: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const chosen = c.req.query('as');
  if (chosen === undefined || !isDevelopment(c.env as Bindings)) return next();
  if (!ADDRESS.test(chosen)) return c.text('?as= takes an address, e.g. bob@example.com', 400);
  setCookie(c, DEVELOPMENT_AUTHOR_COOKIE, chosen, {
    path: '/console',
    sameSite: 'Strict',
    httpOnly: true,
  });
  return c.redirect('/console', 303);
};

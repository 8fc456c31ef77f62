import type { MiddlewareHandler } from 'hono';
import { setCookie } from 'hono/cookie';
import { parse } from 'hono/utils/cookie';
import {
  createRemoteJWKSet,
  customFetch,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { cookieValue } from '../attribution/cookie-header';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import type { ConsoleEnv } from '../request/envs';
import { type JwtRejection, jwtRejectionOf } from '../session/jwt-rejection';

/**
 * Who may open the marketers' console. In production Cloudflare Access stands in front of
 * `/console` and hands the worker a signed application token in `Cf-Access-Jwt-Assertion`;
 * the worker verifies it itself (Cloudflare's "Validate JWTs"), so a request that reaches the
 * worker around Access (a workers.dev route, a misconfigured policy) is still refused. The
 * token's email is the author of what the console publishes.
 */

/** Access sends the token in this header on every request it lets through. */
export const ACCESS_TOKEN_HEADER = 'Cf-Access-Jwt-Assertion';

/**
 * The cookie Access keeps the same token in for the host, which the browser sends to every path
 * of it, the funnel's pages too: how a marketer's preview there knows who they are
 * (worker/preview/preview.ts). HttpOnly, so no page script reads or carries it.
 */
export const ACCESS_COOKIE = 'CF_Authorization';

/**
 * The console's author under `npm start` (ENVIRONMENT=development), where nobody signs in, unless
 * the browser chose another name (chosenDevelopmentAuthor, below).
 */
export const LOCAL_AUTHOR = 'local@geofunnel.dev';

/**
 * Where the middleware gets a team's signing keys: given the team domain (the token's issuer,
 * e.g. https://acme.cloudflareaccess.com), jose's key lookup for it. accessKeySets() fetches the
 * team's certs; a test passes accessKeySets({ fetch }) with a key pair it made.
 */
export type AccessKeys = (teamDomain: string) => JWTVerifyGetKey;

/** Why a token was refused: on the log line only, never in the answer. */
type AccessTokenRejection = JwtRejection;

/**
 * How long fetched certs are used before they are fetched again. A token signed with a key the
 * set lacks (after a rotation, every 6 weeks by default) refetches early, so this only bounds how
 * long a key the team withdrew stays trusted here.
 */
const KEY_SET_MAX_AGE_MS = 10 * 60_000;
/**
 * An unknown `kid` refetches the certs at most this often, so made-up key ids cannot flood them.
 */
const MIN_REFRESH_INTERVAL_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;

/** Tolerated difference between Cloudflare's clock and this isolate's. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * A team's certs (`${teamDomain}/cdn-cgi/access/certs`), fetched and cached by jose: one key
 * set per team domain per call, so per app and per isolate. `fetch` stands in for the network in
 * tests, so no test reaches Cloudflare.
 */
export function accessKeySets(options: { fetch?: typeof fetch } = {}): AccessKeys {
  const sets = new Map<string, JWTVerifyGetKey>();
  return function accessKeySet(teamDomain) {
    let set = sets.get(teamDomain);
    if (!set) {
      set = createRemoteJWKSet(new URL('/cdn-cgi/access/certs', teamDomain), {
        cacheMaxAge: KEY_SET_MAX_AGE_MS,
        cooldownDuration: MIN_REFRESH_INTERVAL_MS,
        timeoutDuration: FETCH_TIMEOUT_MS,
        ...(options.fetch ? { [customFetch]: options.fetch } : {}),
      });
      sets.set(teamDomain, set);
    }
    return set;
  };
}

/** What Access settings the worker has: the issuer (team domain, no trailing slash) and AUD. */
function accessSettings(env: Bindings): { issuer: string; audience: string } | null {
  const audience = env.ACCESS_AUD?.trim();
  if (!env.ACCESS_TEAM_DOMAIN || !audience) return null;
  let team: URL;
  try {
    team = new URL(env.ACCESS_TEAM_DOMAIN.trim());
  } catch {
    return null;
  }
  // The issuer Access writes is the bare origin; a path, query or credentials mean a typo.
  const bare = team.pathname === '/' && !team.search && !team.hash && !team.username;
  if (team.protocol !== 'https:' || !bare) return null;
  return { issuer: team.origin, audience };
}

/** Thrown through jose by the key lookup, so unreachable certs are told apart from a bad token. */
class KeysUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('Access certs unavailable');
  }
}

/** The team's key for a token's `kid`; a failure to fetch the certs is not the token's fault. */
function keyLookup(keys: JWTVerifyGetKey): JWTVerifyGetKey {
  return async function accessKey(header, token) {
    // Access names its key in every token; without a kid jose would try whichever key fits.
    if (typeof header.kid !== 'string') throw new errors.JWKSNoMatchingKey();
    try {
      return await keys(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) throw error;
      if (error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      throw new KeysUnavailable(error);
    }
  };
}

/** What a jose error says about the token, in our words (`not_yet_valid`: nbf or iat ahead). */
const rejectionOf = (error: unknown): AccessTokenRejection => jwtRejectionOf(error);

/** The console's author: the signed-in person's address. A service token carries none. */
function emailOf(claims: JWTPayload): string | null {
  return typeof claims.email === 'string' && claims.email !== '' ? claims.email : null;
}

/** A service token's name: Access writes its client id as `common_name` and no email. */
function serviceOf(claims: JWTPayload): string | null {
  return typeof claims.common_name === 'string' && claims.common_name !== ''
    ? claims.common_name
    : null;
}

/** Why the console refuses a request Access did not vouch for (its status: console-access.ts). */
export type AccessRefusalCode =
  /** Production without the Access settings, or the team's certs out of reach. */
  'console_not_configured' | 'access_token_missing' | 'access_token_invalid';

/** Who a console request is from, or why it is refused (`reason` and `cause` for the log). */
export type AccessVerdict =
  | { ok: true; author: string }
  | {
      ok: false;
      code: AccessRefusalCode;
      reason: string;
      cause?: unknown;
      /**
       * A valid Access token of a service token (a tool, not a person: no email), by its name:
       * not a console author itself, but it lets a console token through
       * (worker/middleware/console-access.ts).
       */
      service?: string;
    };

/** Checks a console request's Access token (worker/middleware/console-access.ts asks it). */
export type AccessCheck = (env: Bindings, request: Request) => Promise<AccessVerdict>;

function refused(code: AccessRefusalCode, reason: string, cause?: unknown): AccessVerdict {
  return cause === undefined ? { ok: false, code, reason } : { ok: false, code, reason, cause };
}

/**
 * Who may use the console. Development (npm start, the tests): anyone, as LOCAL_AUTHOR or the
 * name the browser chose (chosenDevelopmentAuthor, below).
 * Elsewhere: console_not_configured without ACCESS_TEAM_DOMAIN (an https origin) and ACCESS_AUD,
 * or when the team's certs cannot be fetched; access_token_missing without the header;
 * access_token_invalid for a token that is not RS256, not signed by the team's certs, not for
 * this application's AUD, not from the team, outside its validity, or without an email. `now`
 * (milliseconds) is the clock for exp and nbf.
 */
export function accessCheck(options: { keys?: AccessKeys; now?: () => number } = {}): AccessCheck {
  const keys = options.keys ?? accessKeySets();
  const now = options.now ?? Date.now;
  return async function checkAccess(env, request) {
    if (isDevelopment(env)) {
      return { ok: true, author: chosenDevelopmentAuthor(request) ?? LOCAL_AUTHOR };
    }
    const settings = accessSettings(env);
    if (!settings) return refused('console_not_configured', 'access_settings_missing');
    const token =
      request.headers.get(ACCESS_TOKEN_HEADER) ??
      cookieValue(request.headers.get('cookie') ?? undefined, ACCESS_COOKIE);
    if (!token) return refused('access_token_missing', 'no_header');
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, keyLookup(keys(settings.issuer)), {
        // Access signs with RS256 only; taking the header's word for another algorithm is how
        // `alg: none` and HMAC-with-the-public-key forgeries get in.
        algorithms: ['RS256'],
        // Another Access application's token from the same team must not open the console.
        audience: settings.audience,
        issuer: settings.issuer,
        requiredClaims: ['exp'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(now()),
      }));
    } catch (error) {
      // Not the token's fault: most often a mistyped team domain, else Cloudflare out of reach.
      if (error instanceof KeysUnavailable) {
        return refused('console_not_configured', 'access_certs_unavailable', error.reason);
      }
      return refused('access_token_invalid', rejectionOf(error));
    }
    const email = emailOf(claims);
    if (email) return { ok: true, author: email };
    const service = serviceOf(claims);
    if (service) return { ...refused('access_token_invalid', 'service_token'), service };
    return refused('access_token_invalid', 'no_email');
  };
}

/**
 * Who the console takes you for under `npm start`, where nobody signs in: `local@geofunnel.dev`
 * unless this browser chose another name with `/console?as=bob@example.com`, so two browsers can
 * be two people (a review needs a second one: docs/marketers.md, "Working as a team"). Only
 * exactly ENVIRONMENT=development reads or sets it; everywhere else the author is Access's
 * (checked above) and the cookie is ignored.
 */

export const DEVELOPMENT_AUTHOR_COOKIE = 'gf_console_as';

/** An address as a name: something@something, no spaces, short. */
const ADDRESS = /^[^\s@;,"]{1,100}@[^\s@;,"]{1,100}$/;

/** The name this browser chose, or null when none (or not an address). */
function chosenDevelopmentAuthor(request: Request): string | null {
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

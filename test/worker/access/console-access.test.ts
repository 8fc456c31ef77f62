import { Hono } from 'hono';
import { SignJWT } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_COOKIE,
  ACCESS_TOKEN_HEADER,
  accessCheck,
  accessKeySets,
  LOCAL_AUTHOR,
} from '../../../worker/access/console-access';
import { consoleAccess } from '../../../worker/middleware/console-access';
import { requestLog } from '../../../worker/middleware/request-log';
import type { ConsoleEnv } from '../../../worker/request/envs';
import {
  AUD,
  accessClaims,
  CERTS_URL,
  KID,
  makeSigner,
  NOW,
  NOW_MS,
  PRODUCTION,
  type Signer,
  TEAM,
  teamAndStranger,
} from '../console/access-tokens';

let team: Signer;
let stranger: Signer;

beforeAll(async () => {
  ({ team, stranger } = await teamAndStranger());
});

let errorLog: ReturnType<typeof vi.spyOn>;
let requestLogLines: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  errorLog = vi.spyOn(console, 'error').mockImplementation(() => {});
  requestLogLines = vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

function lines(spy: ReturnType<typeof vi.spyOn>): Record<string, unknown>[] {
  return spy.mock.calls.map((call: unknown[]) => JSON.parse(String(call[0])));
}

/**
 * A console guarded by consoleAccess, whose one route echoes the author. The team's certs are
 * served by `certs` in place of the network, and each call is recorded in `certCalls`.
 */
function consoleApp(certs: () => Response = () => Response.json({ keys: [team.jwk] })) {
  const certCalls: string[] = [];
  const certsFetch = (async (input: RequestInfo | URL) => {
    certCalls.push(String(input));
    return certs();
  }) as typeof fetch;
  const app = new Hono<ConsoleEnv>();
  app.use(requestLog());
  app.use(
    '/console/*',
    consoleAccess(accessCheck({ keys: accessKeySets({ fetch: certsFetch }), now: () => NOW_MS })),
  );
  app.get('/console/api/state', (c) => c.json({ author: c.get('consoleAuthor') }));
  return {
    certCalls,
    open(token: string | undefined, bindings: Record<string, string> = PRODUCTION) {
      const headers = new Headers();
      if (token !== undefined) headers.set(ACCESS_TOKEN_HEADER, token);
      return app.request('/console/api/state', { headers }, bindings);
    },
    /** As a funnel page's request carries the token: in the cookie Access keeps, no header. */
    withCookie(cookie: string) {
      return app.request('/console/api/state', { headers: { cookie } }, PRODUCTION);
    },
  };
}

/** Asserts one refusal line with the code and reason, and that no log line holds the token. */
function expectRefusalLogged(code: string, reason: string, token?: string) {
  expect(lines(errorLog)).toEqual([
    expect.objectContaining({ level: 'error', error: code, reason, path: '/console/api/state' }),
  ]);
  expect(lines(requestLogLines)).toEqual([expect.objectContaining({ error: code })]);
  if (token) {
    const written = [...errorLog.mock.calls, ...requestLogLines.mock.calls].join('\n');
    expect(written).not.toContain(token);
    expect(written).not.toContain(token.split('.')[2]);
  }
}

describe('consoleAccess in production', () => {
  it("opens the console to a team member's token and names them the author", async () => {
    const console_ = consoleApp();
    const res = await console_.open(await team.sign(accessClaims()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ author: 'ada@example.com' });
    expect(console_.certCalls).toEqual([CERTS_URL]);
    expect(lines(requestLogLines)).toEqual([
      expect.objectContaining({ status: 200, console_author: 'ada@example.com' }),
    ]);
    expect(lines(errorLog)).toEqual([]);
  });

  it('fetches the certs once per isolate, not per request', async () => {
    const console_ = consoleApp();
    for (const email of ['ada@example.com', 'grace@example.com']) {
      const res = await console_.open(await team.sign(accessClaims({ email })));
      expect(await res.json()).toEqual({ author: email });
    }
    expect(console_.certCalls).toEqual([CERTS_URL]);
  });

  it('takes the team domain with a trailing slash as the same issuer', async () => {
    const console_ = consoleApp();
    const bindings = { ...PRODUCTION, ACCESS_TEAM_DOMAIN: `${TEAM}/` };
    const res = await console_.open(await team.sign(accessClaims()), bindings);
    expect(res.status).toBe(200);
    expect(console_.certCalls).toEqual([CERTS_URL]);
  });

  it('reads the token from the CF_Authorization cookie where no header is (a preview’s holder)', async () => {
    const console_ = consoleApp();
    const token = await team.sign(accessClaims({ email: 'grace@example.com' }));
    const res = await console_.withCookie(`userUuid=abc; ${ACCESS_COOKIE}=${token}; gf_x=1`);
    expect(await res.json()).toEqual({ author: 'grace@example.com' });
    // A stranger's token in the cookie is refused as one in the header is.
    const forged = await stranger.sign(accessClaims());
    expect((await console_.withCookie(`${ACCESS_COOKIE}=${forged}`)).status).toBe(403);
  });

  it('answers 401 access_token_missing without the Access header', async () => {
    const res = await consoleApp().open(undefined);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error: 'access_token_missing' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectRefusalLogged('access_token_missing', 'no_header');
  });

  it.each([
    ['an expired token', { exp: NOW - 3600 }, 'expired'],
    ['a token not valid yet', { nbf: NOW + 3600 }, 'not_yet_valid'],
    ["another Access application's token", { aud: ['another-application-aud'] }, 'wrong_audience'],
    ["another team's token", { iss: 'https://evil.cloudflareaccess.com' }, 'wrong_issuer'],
    ['a token without exp', { exp: undefined }, 'expired'],
    [
      'a service token (no email) bringing no console token',
      { email: undefined, common_name: 'ci.access' },
      'service_token',
    ],
    ['a token with neither email nor service name', { email: undefined }, 'no_email'],
  ])('answers 403 access_token_invalid to %s', async (_, overrides, reason) => {
    const token = await team.sign(accessClaims(overrides));
    const res = await consoleApp().open(token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ ok: false, error: 'access_token_invalid' });
    expectRefusalLogged('access_token_invalid', reason, token);
  });

  it('allows a minute of clock skew on exp, by the injected clock', async () => {
    const console_ = consoleApp();
    expect((await console_.open(await team.sign(accessClaims({ exp: NOW - 59 })))).status).toBe(
      200,
    );
    expect((await console_.open(await team.sign(accessClaims({ exp: NOW - 61 })))).status).toBe(
      403,
    );
  });

  it('answers 403 to a token signed by another key under the same kid', async () => {
    const token = await stranger.sign(accessClaims());
    const res = await consoleApp().open(token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ ok: false, error: 'access_token_invalid' });
    expectRefusalLogged('access_token_invalid', 'bad_signature', token);
  });

  it('answers 403 to a token naming a key the certs do not list', async () => {
    const other = await makeSigner('rotated-out-long-ago');
    const token = await other.sign(accessClaims());
    const res = await consoleApp().open(token);
    expect(res.status).toBe(403);
    expectRefusalLogged('access_token_invalid', 'unknown_key', token);
  });

  it('answers 403 to an HS256 token, whatever its secret', async () => {
    const token = await new SignJWT(accessClaims())
      .setProtectedHeader({ alg: 'HS256', kid: KID, typ: 'JWT' })
      .sign(new TextEncoder().encode('a shared secret anyone could guess'));
    const console_ = consoleApp();
    const res = await console_.open(token);
    expect(res.status).toBe(403);
    expectRefusalLogged('access_token_invalid', 'unsupported_alg', token);
    expect(console_.certCalls).toEqual([]);
  });

  it('answers 403 to a header that is not a JWT', async () => {
    const res = await consoleApp().open('not-a-token');
    expect(res.status).toBe(403);
    expectRefusalLogged('access_token_invalid', 'malformed');
  });

  it.each([
    ['no Access settings', { ENVIRONMENT: 'production' }],
    ['no AUD', { ENVIRONMENT: 'production', ACCESS_TEAM_DOMAIN: TEAM }],
    ['no team domain', { ENVIRONMENT: 'production', ACCESS_AUD: AUD }],
    ['a team name, not a URL', { ...PRODUCTION, ACCESS_TEAM_DOMAIN: 'geofunnel-test' }],
    ['an http team domain', { ...PRODUCTION, ACCESS_TEAM_DOMAIN: TEAM.replace('https', 'http') }],
    ['a team domain with a path', { ...PRODUCTION, ACCESS_TEAM_DOMAIN: `${TEAM}/cdn-cgi` }],
    ['no ENVIRONMENT and no settings', {}],
  ])('answers 503 console_not_configured with %s', async (_, bindings) => {
    const console_ = consoleApp();
    const token = await team.sign(accessClaims());
    const res = await console_.open(token, bindings);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, error: 'console_not_configured' });
    expectRefusalLogged('console_not_configured', 'access_settings_missing', token);
    expect(console_.certCalls).toEqual([]);
  });

  it("answers 503 console_not_configured when the team's certs are out of reach", async () => {
    const console_ = consoleApp(() => new Response('no such team', { status: 404 }));
    const token = await team.sign(accessClaims());
    const res = await console_.open(token);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, error: 'console_not_configured' });
    expectRefusalLogged('console_not_configured', 'access_certs_unavailable', token);
    expect(console_.certCalls).toEqual([CERTS_URL]);
  });
});

describe('consoleAccess in development', () => {
  it('opens the console without a token, with the local author', async () => {
    const console_ = consoleApp();
    const res = await console_.open(undefined, { ENVIRONMENT: 'development' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ author: LOCAL_AUTHOR });
    expect(lines(requestLogLines)).toEqual([
      expect.objectContaining({ console_author: LOCAL_AUTHOR }),
    ]);
    expect(console_.certCalls).toEqual([]);
  });

  it('ignores an Access token: the author stays the local one', async () => {
    const res = await consoleApp().open(await stranger.sign(accessClaims()), {
      ENVIRONMENT: 'development',
    });
    expect(await res.json()).toEqual({ author: LOCAL_AUTHOR });
  });
});

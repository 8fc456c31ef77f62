import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ESCAPE_COMPLETED_KEY, RESUME_API_PATH } from '../../shared/api/resume-paths';
import { IN_APP_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { signedValue, unsigned } from '../fixtures/signed-cookies';
import { recordingQueue } from './collector/recording-queue';
import { exposureRows, TWO_WAY } from './experiments/experiment-fixtures';
import { freshApp, ORIGIN, putConfig, setCookies } from './fetch-app';
import { freshStorage } from './fresh-storage';
import { failNext, signUp } from './portal/portal-client';
import { checkoutVisitor, TICKED_RENEWAL_CONSENT } from './purchases/checkout-visitor';
import { CARDS, tokenize } from './test-gateway/gateway-client';

/**
 * The resume link: the way out of an ad app's in-app browser that keeps the visitor's progress.
 * `POST /api/resume` stores what the real browser needs and answers a signed, single-use link
 * that works 15 minutes; `GET /resume/<token>` restores the visitor there.
 */

type Line = Record<string, unknown>;
let logSpy: ReturnType<typeof vi.spyOn>;
let errorSpy: ReturnType<typeof vi.spyOn>;
const parsed = (spy: ReturnType<typeof vi.spyOn>): Line[] =>
  spy.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)) as Line);
const logs = { requests: () => parsed(logSpy), errors: () => parsed(errorSpy) };

const START = Date.UTC(2026, 10, 22, 8, 0, 0);
const INSTAGRAM_IOS = IN_APP_USER_AGENTS.instagram.ios[0] ?? '';
const FIFTEEN_MINUTES = 15 * 60_000;
const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';
const SESSION = 'portal-access-token-never-to-leave';
/**
 * The in-app browser's cookies: in lp17, which a fresh browser (random 0.2) would not draw, its
 * pin signed for the visitor (beforeAll) as the worker signed it.
 */
const IN_APP_COOKIES = {
  userUuid: VISITOR,
  gf_variant: 'lp17',
  gf_x: 'pw-price~cheap.',
  _fbc: 'fb.1.1790000000000.IwAR0clickid',
  _fbp: 'fb.1.1790000000000.1234567890',
  _ttp: '01JV8BFN75M3CKD94GVAWSG07T_.tt.1.1790477313544',
  _gf_ttclid: 'E.C.P.CqgBinApp-click_1',
  gf_session: SESSION,
};
const BODY = {
  screen: 'checkout_v3_tr',
  search: '?fbclid=IwAR0clickid&gclid=Cj0Kgclid&ttclid=E.C.P.tt',
  entered: { email: 'ann@example.com', planId: 'monthly_usd', phone: '+14155550123' },
};

beforeAll(async () => {
  IN_APP_COOKIES.gf_variant = await signedValue('gf_variant', VISITOR, 'lp17');
  IN_APP_COOKIES.gf_x = await signedValue('gf_x', VISITOR, 'pw-price~cheap.');
});

let clock = START;
beforeEach(async () => {
  // Empty D1 with its migrations applied, and fresh rate-limit counters, for every test.
  await freshStorage();
  logSpy = vi.spyOn(console, 'log').mockImplementation(() => {});
  errorSpy = vi.spyOn(console, 'error').mockImplementation(() => {});
  clock = START;
  await putConfig('split', TWO_WAY);
});
afterEach(() => vi.restoreAllMocks());

function app(bindings: Partial<Cloudflare.Env> = {}) {
  return freshApp({ now: () => clock, random: () => 0.2 }, bindings);
}

function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

/** The page's own POST from inside the ad app (US: no consent needed for the ad cookies). */
function askForLink(
  fetchApp: ReturnType<typeof app>,
  body: unknown = BODY,
  headers: Record<string, string> = {},
) {
  return fetchApp(RESUME_API_PATH, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'sec-fetch-site': 'same-origin',
      'cf-ipcountry': 'US',
      'cf-connecting-ip': '203.0.113.7',
      cookie: cookieHeader(IN_APP_COOKIES),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

async function linkPath(fetchApp: ReturnType<typeof app>): Promise<string> {
  const res = await askForLink(fetchApp);
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return new URL(url).pathname;
}

/** A fresh real browser opening the link: no cookies at all. */
function open(
  fetchApp: ReturnType<typeof app>,
  path: string,
  headers: Record<string, string> = {},
) {
  return fetchApp(path, { headers: { 'cf-ipcountry': 'US', ...headers } });
}

function attribute(html: string, name: string): string {
  const value = new RegExp(`${name}="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no ${name} in the page`);
  return value.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
}

async function storedPayloads(): Promise<string[]> {
  const { results } = await env.EVENTS_DB.prepare('SELECT payload FROM resume_links').all<{
    payload: string;
  }>();
  return results.map((row) => row.payload);
}

function events(name: string) {
  return logs.requests().filter((line) => line.event === name);
}

describe('POST /api/resume', () => {
  it('answers a link to /resume/<id>.<signature> that works 15 minutes', async () => {
    const res = await askForLink(app());
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const answer = (await res.json()) as { url: string; expiresAt: string };
    expect(answer.url).toMatch(new RegExp(`^${ORIGIN}/resume/[0-9a-f]{32}\\.[A-Za-z0-9_-]{43}$`));
    expect(answer.expiresAt).toBe(new Date(START + FIFTEEN_MINUTES).toISOString());
    expect(events('resume_link_created')).toEqual([
      expect.objectContaining({ screen: 'checkout_v3_tr', variant: 'lp17' }),
    ]);
  });

  it('carries no secret: neither the link nor the stored record holds the session', async () => {
    const fetchApp = app();
    const res = await askForLink(fetchApp);
    const text = await res.text();
    const payloads = await storedPayloads();
    expect(payloads).toHaveLength(1);
    for (const written of [text, ...payloads]) {
      expect(written).not.toContain(SESSION);
      expect(written).not.toContain('gf_session');
    }
    // What the record does hold: the worker's own view of the visitor, not the body's.
    expect(JSON.parse(payloads[0]!)).toMatchObject({ visitorId: VISITOR, variant: 'lp17' });
  });

  it('refuses a body naming anything else, such as a token or a visitor of its choosing', async () => {
    const fetchApp = app();
    for (const body of [
      { ...BODY, visitorId: '00000000-0000-4000-8000-000000000000' },
      { ...BODY, entered: { ...BODY.entered, token: SESSION } },
      { ...BODY, screen: 'admin' },
      { ...BODY, entered: { phone: '4155550123' } },
      { ...BODY, entered: { planId: 'free_forever' } },
      { ...BODY, entered: { email: 'not-an-address' } },
      { ...BODY, search: 'https://elsewhere.example/' },
    ]) {
      const res = await askForLink(fetchApp, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ errors: { messages: [] }, code: 'invalid_request' });
    }
    expect(await storedPayloads()).toEqual([]);
  });

  it('refuses a cross-origin POST with 403 and stores nothing', async () => {
    const res = await askForLink(app(), BODY, { 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ errors: { messages: [] }, code: 'cross_origin' });
    expect(await storedPayloads()).toEqual([]);
  });

  it('answers 503 resume_not_configured without RESUME_LINK_KEY', async () => {
    const res = await askForLink(app({ RESUME_LINK_KEY: undefined }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      errors: { messages: [] },
      code: 'resume_not_configured',
    });
    expect(await storedPayloads()).toEqual([]);
  });

  it('limits one visitor to 10 links in 10 minutes', async () => {
    const fetchApp = app();
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 12; i++) {
      // A different address each time: the visitor's own limit is what refuses.
      const res = await askForLink(fetchApp, BODY, { 'cf-connecting-ip': `198.51.100.${i + 1}` });
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(await refused!.json()).toEqual({ errors: { messages: [] }, code: 'rate_limited' });
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'rate_limited',
        call: 'resume',
        rule: 'resume_per_visitor',
      }),
    );
  });
});

describe('GET /resume/<token>', () => {
  it('restores the visitor, variant, ad cookies, screen, query and entries in a fresh browser', async () => {
    const fetchApp = app();
    const res = await open(fetchApp, await linkPath(fetchApp));
    expect(res.status).toBe(200);
    const cookies = setCookies(res);
    expect(cookies.get('userUuid')).toBe(VISITOR);
    // The pin the in-app browser held, signed for the same visitor: the next screen honours it.
    expect(cookies.get('gf_variant')).toBe(IN_APP_COOKIES.gf_variant);
    expect(unsigned(cookies.get('gf_variant'))).toBe('lp17');
    expect(cookies.get('gf_x')).toBe(IN_APP_COOKIES.gf_x);
    expect(cookies.get('_fbc')).toBe(IN_APP_COOKIES._fbc);
    expect(cookies.get('_fbp')).toBe(IN_APP_COOKIES._fbp);
    expect(cookies.get('_ttp')).toBe(IN_APP_COOKIES._ttp);
    expect(cookies.get('_gf_ttclid')).toBe(IN_APP_COOKIES._gf_ttclid);
    expect(cookies.has('gf_session')).toBe(false);
    // Each cookie once: no middleware made a fresh one first.
    for (const name of ['userUuid=', 'gf_variant=', '_fbp=', '_ttp=', '_gf_ttclid=']) {
      expect(
        res.headers.getSetCookie().filter((c) => c.startsWith(name)),
        name,
      ).toHaveLength(1);
    }

    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const csp = res.headers.get('content-security-policy') ?? '';
    const html = await res.text();
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    expect(csp).toContain(`'nonce-${nonce}'`);
    expect(html).toContain('location.replace(data.target)');

    const target = `/checkout_v3_tr${BODY.search}`;
    expect(attribute(html, 'data-target')).toBe(target);
    expect(html).toContain(`<a href="${target.replaceAll('&', '&amp;')}">`);
    expect(JSON.parse(attribute(html, 'data-entered'))).toEqual({
      'gf:signup:email': '"ann@example.com"',
      'gf:plans:plan': '"monthly_usd"',
      'gf:map:phone': '"+14155550123"',
      'gf:map:phoneDisplay': '"+1 415 555 0123"',
    });
    expect(events('resume_link_used')).toEqual([
      expect.objectContaining({ screen: 'checkout_v3_tr', variant: 'lp17' }),
    ]);
  });

  it('a purchase in the browser the link opened sends the ttclid and _ttp of the app’s browser', async () => {
    const { queue, sent } = recordingQueue();
    const fetchApp = app({ EVENTS_QUEUE: queue, PORTAL_POLLING_DELAY_MS: '0' });
    const res = await open(fetchApp, await linkPath(fetchApp));
    const adCookies = [...setCookies(res)]
      .filter(([name]) => name.startsWith('_'))
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    // The real browser pays from a page whose URL has no ttclid (checkout_v3_tr?gclid=g-1).
    const buyer = checkoutVisitor({ fetchApp, otherCookies: adCookies });
    await buyer.signUp();
    await buyer.poll(await buyer.subscribe(await buyer.tokenize(CARDS.succeeds)));
    expect(sent.map((message) => message.context.ad_cookies)).toEqual([
      expect.objectContaining({ ttp: IN_APP_COOKIES._ttp, ttclid: IN_APP_COOKIES._gf_ttclid }),
    ]);
  });

  it('opens a link stored before the ttclid was carried, restoring the rest', async () => {
    const fetchApp = app();
    const path = await linkPath(fetchApp);
    await env.EVENTS_DB.prepare(
      "UPDATE resume_links SET payload = json_remove(payload, '$.adCookies.ttclid')",
    ).run();
    const [stored = '{}'] = await storedPayloads();
    expect(JSON.parse(stored).adCookies).toEqual({
      fbc: IN_APP_COOKIES._fbc,
      fbp: IN_APP_COOKIES._fbp,
      ttp: IN_APP_COOKIES._ttp,
    });
    const res = await open(fetchApp, path);
    expect(res.status).toBe(200);
    const cookies = setCookies(res);
    expect(cookies.get('_ttp')).toBe(IN_APP_COOKIES._ttp);
    expect(cookies.has('_gf_ttclid')).toBe(false);
  });

  it('tells the opened screen which in-app browser the visitor left, to report it once', async () => {
    const fetchApp = app();
    const res = await askForLink(fetchApp, BODY, { 'user-agent': INSTAGRAM_IOS });
    const { url } = (await res.json()) as { url: string };
    const html = await (await open(fetchApp, new URL(url).pathname)).text();
    expect(JSON.parse(attribute(html, 'data-entered'))).toMatchObject({
      [ESCAPE_COMPLETED_KEY]: JSON.stringify({ app: 'instagram', os: 'ios' }),
    });
    // From a browser that is no app's: nothing to report.
    const plain = await (await open(fetchApp, await linkPath(fetchApp))).text();
    expect(JSON.parse(attribute(plain, 'data-entered'))).not.toHaveProperty(ESCAPE_COMPLETED_KEY);
  });

  it('counts no new exposure: neither the link nor the screen it opens draws a variant', async () => {
    const fetchApp = app();
    const res = await open(fetchApp, await linkPath(fetchApp));
    const cookies = setCookies(res);
    const screen = await fetchApp(`/checkout_v3_tr${BODY.search}`, {
      headers: {
        'cf-ipcountry': 'US',
        cookie: cookieHeader(Object.fromEntries(cookies)),
      },
    });
    expect(screen.status).toBe(200);
    await screen.text();
    expect(setCookies(screen).has('gf_variant')).toBe(false);
    expect(await exposureRows()).toEqual([]);
  });

  it('works once: the second opening gets the 410 page', async () => {
    const fetchApp = app();
    const path = await linkPath(fetchApp);
    expect((await open(fetchApp, path)).status).toBe(200);
    const again = await open(fetchApp, path);
    expect(again.status).toBe(410);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    expect(setCookies(again).has('userUuid')).toBe(false);
    const html = await again.text();
    expect(html).toContain('This link has expired or was already used.');
    expect(html).toContain('<a href="/">Start again</a>');
    expect(events('resume_link_refused')).toEqual([
      expect.objectContaining({ reason: 'used_or_expired' }),
    ]);
  });

  it('expires 15 minutes after it was made', async () => {
    const fetchApp = app();
    const early = await linkPath(fetchApp);
    const late = await linkPath(fetchApp);
    clock = START + FIFTEEN_MINUTES - 1;
    expect((await open(fetchApp, early)).status).toBe(200);
    clock = START + FIFTEEN_MINUTES;
    const expired = await open(fetchApp, late);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired or was already used.');
    // The expired row is swept, not kept.
    expect(await storedPayloads()).toEqual([]);
  });

  it('turns away a changed id or signature with the 400 page, in the visitor’s language', async () => {
    const fetchApp = app();
    const path = await linkPath(fetchApp);
    const [, id = '', signature = ''] = /^\/resume\/([^.]+)\.(.+)$/.exec(path) ?? [];
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
    for (const tampered of [
      `/resume/${flip(id, 0)}.${signature}`,
      `/resume/${id}.${flip(signature, 10)}`,
      `/resume/${id}`,
      '/resume/not-a-token',
    ]) {
      const res = await open(fetchApp, tampered);
      expect(res.status, tampered).toBe(400);
      expect(setCookies(res).has('userUuid')).toBe(false);
      expect(await res.text()).toContain('This link does not work.');
    }
    const german = await open(fetchApp, `/resume/${id}.${flip(signature, 10)}`, {
      'accept-language': 'de-DE,de;q=0.9',
    });
    expect(german.status).toBe(400);
    expect(await german.text()).toContain('Dieser Link funktioniert nicht.');
    expect(events('resume_link_refused').map((line) => line.reason)).toEqual([
      'bad_signature',
      'bad_signature',
      'malformed',
      'malformed',
      'bad_signature',
    ]);
    // None of them used the link up.
    expect((await open(fetchApp, path)).status).toBe(200);
  });

  it('answers a path without a token with the 404 page, not an error', async () => {
    const fetchApp = app();
    for (const path of ['/resume', '/resume/', '/resume/a/b']) {
      const res = await open(fetchApp, path);
      expect(res.status, path).toBe(404);
      await res.text();
    }
  });
});

describe('a resume link made after sign-up', () => {
  /** A visitor signed up inside the app's browser: the worker's session cookies, and the token. */
  async function signedUpInApp() {
    const account = await signUp();
    const cookies = {
      ...IN_APP_COOKIES,
      gf_session: account.accessToken,
      gf_user: await signedValue('gf_user', VISITOR, account.userId),
    };
    return { ...account, cookies };
  }

  async function signedInLink(
    fetchApp: ReturnType<typeof app>,
    account: Awaited<ReturnType<typeof signedUpInApp>>,
    loginToken = account.deeplinkToken,
  ): Promise<string> {
    const res = await askForLink(
      fetchApp,
      { ...BODY, loginToken },
      { cookie: cookieHeader(account.cookies) },
    );
    expect(res.status).toBe(200);
    return new URL(((await res.json()) as { url: string }).url).pathname;
  }

  /** A refused opening: `status`, no session or visitor cookie, the reason on the log line. */
  function expectRefused(res: Response, status: number, reason: string) {
    expect(res.status).toBe(status);
    expect(setCookies(res).has('gf_session')).toBe(false);
    expect(setCookies(res).has('userUuid')).toBe(false);
    expect(events('resume_link_refused')).toEqual([expect.objectContaining({ reason })]);
  }

  /** The signed-in calls work with the session cookies `response` set. */
  async function paymentSettingsWith(fetchApp: ReturnType<typeof app>, response: Response) {
    const cookies = setCookies(response);
    const sent = ['userUuid', 'gf_session', 'gf_session_owner'].map(
      (name) => `${name}=${cookies.get(name)}`,
    );
    return fetchApp('/api/users/me/payments-settings', { headers: { cookie: sent.join('; ') } });
  }

  it('the real browser reads and records the charge the app’s browser started; a stranger cannot', async () => {
    const { queue, sent } = recordingQueue();
    const fetchApp = app({ EVENTS_QUEUE: queue, PORTAL_POLLING_DELAY_MS: '0' });
    const account = await signedUpInApp();
    // In the app's browser: Pay on the lp17 paywall, then out through the link before the result.
    const started = await fetchApp('/api/users/me/subscriptions/polling/monthly_7d_intro_usd', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        'cf-ipcountry': 'US',
        cookie: cookieHeader(account.cookies),
      },
      body: JSON.stringify({
        gateway: 'test',
        payment_method_nonce: await tokenize(CARDS.succeeds),
        coupon: null,
        user_data: {},
        renewal_consent: TICKED_RENEWAL_CONSENT,
      }),
    });
    expect(started.status).toBe(200);
    const { polling_result_id: pollingId } = (
      (await started.json()) as {
        data: { polling_result_id: string };
      }
    ).data;
    const opened = await open(fetchApp, await signedInLink(fetchApp, account));
    expect(opened.status).toBe(200);
    const real = cookieHeader(Object.fromEntries(setCookies(opened)));
    const poll = (cookie: string) =>
      fetchApp(`/api/polling/get-result/${pollingId}`, {
        headers: { cookie, 'cf-ipcountry': 'US' },
      });
    // A stranger with the polling id (a fresh browser) learns nothing and is recorded as nobody.
    const stranger = await poll(`userUuid=${crypto.randomUUID()}`);
    expect(stranger.status).toBe(404);
    expect(sent).toEqual([]);
    const result = await poll(real);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ data: { result_data: { status: 'succeeded' } } });
    expect(sent.map((message) => ('event' in message ? message.event : message.events))).toEqual([
      expect.objectContaining({ device_id: VISITOR, user_id: account.userId }),
    ]);
  });

  it('signs the real browser in to the same account, once, the login token kept sealed', async () => {
    const fetchApp = app();
    const account = await signedUpInApp();
    const path = await signedInLink(fetchApp, account);
    // Stored, the login token is sealed and the access token absent.
    const [payload = ''] = await storedPayloads();
    expect(payload).not.toContain(account.deeplinkToken);
    expect(payload).not.toContain(account.accessToken);
    expect(JSON.parse(payload).signIn).toEqual({
      sealed: expect.stringMatching(/^v1\.[\w-]{16}\.[\w-]+$/),
      userId: account.userId,
    });
    expect(events('resume_link_created')).toEqual([expect.objectContaining({ signed_in: true })]);

    const res = await open(fetchApp, path);
    expect(res.status).toBe(200);
    const cookies = setCookies(res);
    expect(cookies.get('gf_session')).toBeTruthy();
    expect(cookies.get('gf_session')).not.toBe(account.accessToken);
    expect(unsigned(cookies.get('gf_user'))).toBe(account.userId);
    expect(cookies.get('userUuid')).toBe(VISITOR);
    expect((await paymentSettingsWith(fetchApp, res)).status).toBe(200);
    // The islands find the account, and the email and plan the visitor chose.
    expect(JSON.parse(attribute(await res.text(), 'data-entered'))).toMatchObject({
      'gf:signup:isSuccess': 'true',
      'gf:signup:userId': JSON.stringify(account.userId),
      'gf:signup:email': '"ann@example.com"',
      'gf:plans:plan': '"monthly_usd"',
    });
    expect(events('resume_link_used')).toEqual([expect.objectContaining({ signed_in: true })]);

    const again = await open(fetchApp, path);
    expect(again.status).toBe(410);
    expect(setCookies(again).has('gf_session')).toBe(false);
  });

  it('takes a login token only from a browser signed in with the worker’s session', async () => {
    const fetchApp = app();
    const { deeplinkToken } = await signUp();
    const { gf_session: _, ...signedOut } = IN_APP_COOKIES;
    const res = await askForLink(
      fetchApp,
      { ...BODY, loginToken: deeplinkToken },
      { cookie: cookieHeader(signedOut) },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: { messages: [] }, code: 'invalid_request' });
    expect(await storedPayloads()).toEqual([]);
  });

  it('signs nobody in with a sealed token moved to another record', async () => {
    const fetchApp = app();
    const first = await signedInLink(fetchApp, await signedUpInApp());
    await signedInLink(fetchApp, await signedUpInApp());
    // Someone with the database swaps the two records' sealed tokens.
    const { results } = await env.EVENTS_DB.prepare(
      'SELECT id, payload FROM resume_links ORDER BY created_at, id',
    ).all<{ id: string; payload: string }>();
    const [a, b] = results.map((row) => ({ id: row.id, record: JSON.parse(row.payload) }));
    for (const [row, other] of [
      [a, b],
      [b, a],
    ]) {
      const record = { ...row!.record, signIn: other!.record.signIn };
      await env.EVENTS_DB.prepare('UPDATE resume_links SET payload = ? WHERE id = ?')
        .bind(JSON.stringify(record), row!.id)
        .run();
    }
    const res = await open(fetchApp, first);
    expectRefused(res, 400, 'sign_in_unsealed');
    expect(await res.text()).toContain('This link does not work.');
  });

  it('signs nobody in with another account’s login token', async () => {
    const fetchApp = app();
    const visitor = await signedUpInApp();
    const someoneElse = await signUp();
    const path = await signedInLink(fetchApp, visitor, someoneElse.deeplinkToken);
    expectRefused(await open(fetchApp, path), 400, 'sign_in_other_account');
  });

  it('is used up once its login token was spent elsewhere (the app’s login link)', async () => {
    const fetchApp = app();
    const account = await signedUpInApp();
    const path = await signedInLink(fetchApp, account);
    const login = await fetchApp('/app/login', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin', origin: ORIGIN },
      body: new URLSearchParams({ token: account.deeplinkToken }),
    });
    expect(login.status).toBe(200);
    const res = await open(fetchApp, path);
    expectRefused(res, 410, 'sign_in_spent');
    expect(await res.text()).toContain('This link has expired or was already used.');
  });

  it('keeps the link when the portal cannot sign in: a 503 page to try again, then in', async () => {
    const fetchApp = app();
    const account = await signedUpInApp();
    const path = await signedInLink(fetchApp, account);
    await failNext('deeplink-consume', 1);
    const down = await open(fetchApp, path);
    expectRefused(down, 503, 'sign_in_unavailable');
    const html = await down.text();
    expect(html).toContain('We could not sign you in just now.');
    expect(html).toContain(`<a href="${path}">Try again</a>`);

    const res = await open(fetchApp, path);
    expect(res.status).toBe(200);
    expect(unsigned(setCookies(res).get('gf_user'))).toBe(account.userId);
    expect((await paymentSettingsWith(fetchApp, res)).status).toBe(200);
  });
});

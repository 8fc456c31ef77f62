import { describe, expect, it } from 'vitest';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { signUp } from './portal-client';

const fetchApp = freshApp();

const loginLink = (token: string) => `/app/login?token=${encodeURIComponent(token)}`;

/** The form POST the link's page makes, with the headers a browser sends on it. */
function postLogin(token: string, headers: Record<string, string> = {}) {
  return fetchApp('/app/login', {
    method: 'POST',
    headers: { 'sec-fetch-site': 'same-origin', origin: ORIGIN, ...headers },
    body: new URLSearchParams({ token }),
  });
}

/** The signed-in calls work with the session cookie `response` set. */
async function expectSignedIn(response: Response) {
  const session = setCookies(response).get('gf_session');
  expect(session).toBeTruthy();
  // What a browser keeps and sends with the page's next /api call.
  expect(response.headers.getSetCookie()).toContain(
    `gf_session=${session}; Path=/api; HttpOnly; Secure; SameSite=Lax`,
  );
  const set = setCookies(response);
  const sent = ['userUuid', 'gf_session', 'gf_session_owner'].map(
    (name) => `${name}=${set.get(name)}`,
  );
  const settings = await fetchApp('/api/users/me/payments-settings', {
    headers: { cookie: sent.join('; ') },
  });
  expect(settings.status).toBe(200);
}

describe('GET /app/login?token=…: a page that consumes nothing', () => {
  it('shows a form that posts the token back, with a nonce’d script to send it', async () => {
    const { deeplinkToken } = await signUp();
    const response = await fetchApp(loginLink(deeplinkToken));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(setCookies(response).has('gf_session')).toBe(false);
    const html = await response.text();
    expect(html).toContain('<h1>Log in to the app</h1>');
    expect(html).toContain('<form id="login" method="post" action="/app/login">');
    expect(html).toContain(`<input type="hidden" name="token" value="${deeplinkToken}">`);
    expect(html).toContain('<button type="submit">Log in</button>');
    const csp = response.headers.get('content-security-policy') ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(html).toContain(`<script nonce="${nonce}">`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self'/);
  });

  it('opened twice (a previewer, then the person), then posted: logged in', async () => {
    const { deeplinkToken } = await signUp();
    expect((await fetchApp(loginLink(deeplinkToken))).status).toBe(200);
    expect((await fetchApp(loginLink(deeplinkToken))).status).toBe(200);
    const response = await postLogin(deeplinkToken);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<h1>You are logged in</h1>');
    await expectSignedIn(response);
  });

  it('speaks the visitor’s language', async () => {
    const { deeplinkToken } = await signUp();
    const response = await fetchApp(loginLink(deeplinkToken), {
      headers: { 'accept-language': 'de-DE' },
    });
    const html = await response.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('<h1>In der App anmelden</h1>');
    expect(html).toContain('<button type="submit">Anmelden</button>');
  });

  it('answers 404 for no token, and for one the contract would not take', async () => {
    expect((await fetchApp('/app/login')).status).toBe(404);
    expect((await fetchApp(loginLink('x'.repeat(256)))).status).toBe(404);
  });
});

describe('POST /app/login: consumes the token once', () => {
  it('refuses the same token the second time (410) and sets no cookie', async () => {
    const { deeplinkToken } = await signUp();
    expect((await postLogin(deeplinkToken)).status).toBe(200);
    const again = await postLogin(deeplinkToken);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This login link has already been used.');
    expect(setCookies(again).has('gf_session')).toBe(false);
  });

  it.each([
    ['another site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' }],
    ['no page at all (neither header)', {}],
  ])('refuses a POST from %s (403) and leaves the token usable', async (_, headers) => {
    const { deeplinkToken } = await signUp();
    const forged = await fetchApp('/app/login', {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token: deeplinkToken }),
    });
    expect(forged.status).toBe(403);
    expect(setCookies(forged).has('gf_session')).toBe(false);
    await expectSignedIn(await postLogin(deeplinkToken));
  });

  it('refuses a body over 1 KB (413) before reading the token, and leaves it usable', async () => {
    const { deeplinkToken } = await signUp();
    const padded = await fetchApp('/app/login', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin', origin: ORIGIN },
      body: new URLSearchParams({ token: deeplinkToken, pad: 'x'.repeat(1024) }),
    });
    expect(padded.status).toBe(413);
    expect(await padded.text()).toBe('Payload too large\n');
    await expectSignedIn(await postLogin(deeplinkToken));
  });

  it('answers 404 for a token it never gave, and for none', async () => {
    expect((await postLogin('not-a-token')).status).toBe(404);
    expect((await postLogin('')).status).toBe(404);
  });

  it('answers 502 when the portal cannot be reached, and sets no cookie', async () => {
    const down = freshApp({ portalFetch: () => Promise.reject(new Error('down')) });
    const response = await down('/app/login', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ token: 'whatever' }),
    });
    expect(response.status).toBe(502);
    expect(setCookies(response).has('gf_session')).toBe(false);
  });
});

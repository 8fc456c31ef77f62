import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshApp, ORIGIN, setCookies } from './fetch-app';
import { freshStorage } from './fresh-storage';
import { islandProps, pageStateOf, tagWith } from './page-html';
import { failNext } from './portal/portal-client';

beforeEach(() => freshStorage());

const VISITOR = '8b0f6a57-1d2e-4c3b-9a8d-7e6f5a4b3c2d';
const EN_INVALID = 'Please enter a valid email address';
const EN_EMPTY = 'Please enter your email address';
const EN_TAKEN = 'The email has already been taken';
const DE_TAKEN = 'Diese E-Mail-Adresse wird bereits verwendet.';
const EN_FAILED = 'Failed to create an account';
const EN_LIMITED = 'Too many attempts. Please wait a few minutes and try again.';

type Fetch = ReturnType<typeof freshApp>;

/** The signup screen's email form as a browser posts it without script, from our own page. */
function postEmail(
  fetchApp: Fetch,
  email: string | null,
  headers: Record<string, string> = {},
  path = '/signup?skip_split=true&gclid=x',
) {
  return fetchApp(path, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
      cookie: `userUuid=${VISITOR}`,
      ...headers,
    },
    body: new URLSearchParams(email === null ? {} : { email }),
  });
}

interface StoredUser {
  id: string;
  email: string;
  name: string;
  user_uuid: string;
  registration_source: string;
}

async function usersIn(): Promise<StoredUser[]> {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT id, email, name, user_uuid, registration_source FROM users',
  ).all<StoredUser>();
  return results;
}

/** The email field of a page, and the text tied to it as its description. */
function emailField(html: string): { tag: string; description: string | null } {
  const tag = tagWith(html, 'name="email"');
  const describedBy = /aria-describedby="([^"]+)"/.exec(tag)?.[1];
  const description = describedBy
    ? (new RegExp(`<p id="${describedBy}"[^>]*>(.*?)</p>`)
        .exec(html)?.[1]
        ?.replace(/<[^>]*>/g, '') ?? null)
    : null;
  return { tag, description };
}

describe('the signup email form without script (SPEC.md §4 Signup)', () => {
  it('creates the account as the island would and hands it to the next screen, once', async () => {
    const fetchApp = freshApp();
    const res = await postEmail(fetchApp, '  nojs@example.com ');
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toBe('/checkout_v3_tr?skip_split=true&gclid=x');
    // Not in the URL, where the tracker's page URL and the ad pixels would read it.
    expect(location).not.toContain('nojs');

    const [user] = await usersIn();
    expect(user).toMatchObject({
      email: 'nojs@example.com',
      name: 'nojs@example.com',
      user_uuid: VISITOR,
      registration_source: 'email',
    });
    // Signed in as the island's call signs in: the token in the HttpOnly session cookie, for /api.
    const session = res.headers.getSetCookie().find((line) => line.startsWith('gf_session='));
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/Path=\/api/);
    const carried = res.headers.getSetCookie().find((line) => line.startsWith('gf_account='));
    expect(carried).toMatch(/HttpOnly/);
    expect(carried).toMatch(/SameSite=Lax/);
    expect(carried).toMatch(/Max-Age=600/);
    // The next screen prefetched before the post, without the account, is not shown.
    expect(res.headers.get('clear-site-data')).toBe('"prefetchCache", "prerenderCache"');

    const cookie = `userUuid=${VISITOR}; gf_account=${setCookies(res).get('gf_account')}`;
    // A prefetch of the next screen leaves the account for the real visit.
    const prefetch = await fetchApp(location, { headers: { cookie, 'sec-purpose': 'prefetch' } });
    expect(pageStateOf(await prefetch.text()).account).toBeUndefined();
    expect(setCookies(prefetch).has('gf_account')).toBe(false);

    const next = await fetchApp(location, { headers: { cookie } });
    expect(next.status).toBe(200);
    // The page holds the account's one-time login grant: no cache keeps it.
    expect(next.headers.get('cache-control')).toBe('no-store');
    const state = pageStateOf(await next.text());
    expect(state.screen).toBe('checkout_v3_tr');
    expect(state.account).toEqual({
      email: 'nojs@example.com',
      userId: user?.id,
      deeplinkToken: expect.stringMatching(/.{16,}/),
      screen: 'signup',
      path: '/signup',
    });
    expect(setCookies(next).get('gf_account')).toBe('');
    // Any later page is an ordinary one again.
    const later = await fetchApp(location, { headers: { cookie: `userUuid=${VISITOR}` } });
    expect(pageStateOf(await later.text()).account).toBeUndefined();
    expect(later.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('signs the browser in: the checkout’s payment settings answer with the session cookie', async () => {
    const fetchApp = freshApp();
    const res = await postEmail(fetchApp, 'settings@example.com');
    // The browser's cookies: its id, and the session with the cookie that binds it to the id.
    const set = setCookies(res);
    const settings = await fetchApp('/api/users/me/payments-settings', {
      headers: {
        cookie: `userUuid=${VISITOR}; gf_session=${set.get('gf_session')}; gf_session_owner=${set.get('gf_session_owner')}`,
      },
    });
    expect(settings.status).toBe(200);
    expect(await settings.json()).toHaveProperty('payment_gateway');
  });

  it('refuses an invalid address: the signup screen again, the error tied to the field, text kept', async () => {
    const res = await postEmail(freshApp(), 'name@gmail');
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    const field = emailField(html);
    expect(field.tag).toContain('value="name@gmail"');
    expect(field.tag).toContain('aria-invalid="true"');
    expect(field.description).toBe(EN_INVALID);
    // The island hydrates with the same refusal, so the page does not change under the visitor.
    expect(islandProps(html, 'SignupForm').refused).toEqual({
      value: 'name@gmail',
      message: EN_INVALID,
    });
    expect(await usersIn()).toEqual([]);
    expect(setCookies(res).has('gf_session')).toBe(false);
    expect(setCookies(res).has('gf_account')).toBe(false);
    expect(res.headers.get('clear-site-data')).toBeNull();
  });

  it('refuses an empty or missing address with the empty-field message', async () => {
    for (const email of ['   ', null]) {
      const res = await postEmail(freshApp(), email);
      expect(res.status).toBe(422);
      expect(emailField(await res.text()).description).toBe(EN_EMPTY);
    }
    expect(await usersIn()).toEqual([]);
  });

  it('an address already taken: the island’s text, in the visitor’s language, one account', async () => {
    const fetchApp = freshApp();
    expect((await postEmail(fetchApp, 'taken@example.com')).status).toBe(303);
    const again = await postEmail(fetchApp, 'Taken@example.com', { 'accept-language': 'de-DE,de' });
    expect(again.status).toBe(422);
    const html = await again.text();
    expect(html).toContain('<html lang="de"');
    // What to do next, beside the field: log in to the app with it, or another address.
    expect(emailField(html).description).toBe(
      `${DE_TAKEN} Zu dieser Adresse gibt es schon ein Konto: Melde dich damit in der App an oder nutze eine andere E-Mail-Adresse. App StoreGoogle PlayAndere E-Mail-Adresse nutzen`,
    );
    expect(emailField(html).tag).toContain('value="Taken@example.com"');
    expect(html).not.toContain(EN_TAKEN);
    expect(setCookies(again).has('gf_account')).toBe(false);
    expect(await usersIn()).toHaveLength(1);
  });

  it('a portal that fails or cannot be reached: the SPEC.md §8 fallback, the address kept', async () => {
    // The portal's own words never reach the page: the island's toast text for the step instead.
    await failNext('signup', 1);
    const failed = await postEmail(freshApp(), 'retry@example.com');
    expect(failed.status).toBe(500);
    const failedHtml = await failed.text();
    expect(emailField(failedHtml).description).toBe(EN_FAILED);
    expect(failedHtml).not.toContain('Emulated failure');

    const unreachable = freshApp({
      portalFetch: async () => {
        throw new TypeError('Network connection lost.');
      },
    });
    const down = await postEmail(unreachable, 'retry@example.com');
    expect(down.status).toBeGreaterThanOrEqual(500);
    const html = await down.text();
    expect(emailField(html).description).toBe(EN_FAILED);
    expect(emailField(html).tag).toContain('value="retry@example.com"');
    expect(setCookies(down).has('gf_session')).toBe(false);

    // Once the portal answers, the same address goes through.
    expect((await postEmail(freshApp(), 'retry@example.com')).status).toBe(303);
    expect(await usersIn()).toHaveLength(1);
  });

  it('counts toward the sign-up limit like the island’s call: a burst is refused with 429', async () => {
    const fetchApp = freshApp();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push((await postEmail(fetchApp, `burst${attempt}@example.com`)).status);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    const limited = await postEmail(fetchApp, 'burst9@example.com');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(emailField(await limited.text()).description).toBe(EN_LIMITED);
    expect(await usersIn()).toHaveLength(5);
  });

  it('refuses a post from another site, with no account made', async () => {
    const res = await postEmail(freshApp(), 'forged@example.com', {
      origin: 'https://evil.test',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.status).toBe(403);
    expect(setCookies(res).has('gf_session')).toBe(false);
    expect(await usersIn()).toEqual([]);
  });

  it('refuses a huge body with 413 and a body that is no form with 415', async () => {
    const fetchApp = freshApp();
    const huge = await postEmail(fetchApp, `${'a'.repeat(100_000)}@example.com`);
    expect(huge.status).toBe(413);
    const json = await fetchApp('/signup', {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'json@example.com' }),
    });
    expect(json.status).toBe(415);
    expect(await usersIn()).toEqual([]);
  });

  it('ignores a carried account the visitor edited into something else', async () => {
    const forged = [
      encodeURIComponent(
        JSON.stringify({ email: 'x', userId: 'u', deeplinkToken: 't', screen: 'signup' }),
      ),
      encodeURIComponent(
        JSON.stringify({ email: 'a@example.com', userId: 7, deeplinkToken: 't', screen: 'signup' }),
      ),
      encodeURIComponent(
        JSON.stringify({
          email: 'a@example.com',
          userId: 'u',
          deeplinkToken: 't',
          screen: 'nowhere',
        }),
      ),
      'not-json',
    ];
    for (const value of forged) {
      const res = await freshApp()('/checkout_v3_tr', {
        headers: { cookie: `gf_account=${value}` },
      });
      expect(pageStateOf(await res.text()).account).toBeUndefined();
    }
  });

  it('names the path it was signed up on only as a screen of this site', async () => {
    const carried = (path: string) =>
      encodeURIComponent(
        JSON.stringify({
          email: 'a@example.com',
          userId: 'u',
          deeplinkToken: 't',
          screen: 'signup',
          path,
        }),
      );
    const accountWith = async (path: string) => {
      const res = await freshApp()('/checkout_v3_tr', {
        headers: { cookie: `gf_account=${carried(path)}` },
      });
      return pageStateOf(await res.text()).account?.path;
    };
    // A composed sign-up's own path is kept; anything else is the screen in code's.
    expect(await accountWith('/spring_signup')).toBe('/spring_signup');
    for (const forged of ['//evil.example/signup', 'https://evil.example/', '/sign up', '/a/b']) {
      expect(await accountWith(forged)).toBe('/signup');
    }
  });
});

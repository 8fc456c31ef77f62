import { describe, expect, it } from 'vitest';
import { FIRST_TOUCH_COOKIE } from '../../../worker/request/cookies';
import { decodeFirstTouch } from '../../../worker/routing/first-touch';
import { unsigned } from '../../fixtures/signed-cookies';
import { freshApp, setCookies } from '../fetch-app';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function app() {
  return freshApp({ now: () => NOW });
}

function touchSet(response: Response) {
  return decodeFirstTouch(unsigned(setCookies(response).get(FIRST_TOUCH_COOKIE)));
}

describe('the first touch of a visit', () => {
  it('is taken on the first page from its link and country, and kept 30 days, HttpOnly', async () => {
    const res = await app()('/?utm_source=tiktok&utm_campaign=DE%20launch&ttclid=E.C.P.t1&r=bf24', {
      headers: { 'cf-ipcountry': 'DE' },
    });
    expect(res.status).toBe(200);
    expect(touchSet(res)).toEqual({
      source: 'tiktok',
      click_id: 'tiktok',
      utm: { source: 'tiktok', medium: null, campaign: 'DE launch', content: null, term: null },
      entry: 'bf24',
      country: 'DE',
      began_at: NOW,
    });
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${FIRST_TOUCH_COOKIE}=`));
    expect(header).toMatch(/Max-Age=2592000/);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
  });

  it('a later page with other parameters keeps the first, and sets nothing', async () => {
    const fetchApp = app();
    const first = await fetchApp('/?utm_source=fb', { headers: { 'cf-ipcountry': 'US' } });
    const cookie = [...setCookies(first)].map(([name, value]) => `${name}=${value}`).join('; ');
    const later = await fetchApp('/?utm_source=google&gclid=abc', { headers: { cookie } });
    expect(setCookies(later).has(FIRST_TOUCH_COOKIE)).toBe(false);
  });

  it("a forged or broken cookie is replaced by this page's first touch, never an error", async () => {
    for (const value of ['%%%', 'e30', 'A'.repeat(3000), btoa('{"v":1,"source":"admin"}')]) {
      const res = await app()('/?utm_source=instagram', {
        headers: { cookie: `${FIRST_TOUCH_COOKIE}=${value}` },
      });
      expect(res.status).toBe(200);
      expect(touchSet(res)?.source).toBe('meta');
    }
  });

  it('hostile query values count as absent and the page is served', async () => {
    const res = await app()(
      `/?utm_source=${'%00'.repeat(50)}&utm_campaign=${'x'.repeat(5000)}&r=%F0%9F%92%A5&fbclid=<b>`,
    );
    expect(res.status).toBe(200);
    expect(touchSet(res)).toMatchObject({
      source: 'direct',
      utm: { source: null, campaign: null },
      entry: null,
    });
  });

  it('is not taken on the collector or the API', async () => {
    const res = await app()('/api/cf-country?utm_source=fb');
    expect(setCookies(res).has(FIRST_TOUCH_COOKIE)).toBe(false);
  });
});

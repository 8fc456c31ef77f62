import { describe, expect, it } from 'vitest';
import type { PageState } from '../../../islands/protocol';
import { freshApp, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';

/** The state the page's boot script receives. */
async function pageState(response: Response): Promise<PageState> {
  return pageStateOf(await response.text());
}

/** A US visitor: no consent asked by default. */
const US = { headers: { 'cf-ipcountry': 'US' } };

describe('the page hands the analytics tracker its context', () => {
  it('names the visitor, the environment and the first-party collector', async () => {
    const response = await freshApp({}, { ENVIRONMENT: 'development' })('/', US);
    const visitor = setCookies(response).get('userUuid');
    const state = await pageState(response);
    expect(state.analytics).toMatchObject({
      visitorId: visitor,
      production: false,
      collector: '/e',
      consent: 'not_required',
      pixels: { meta: null, tiktok: null, googleAds: null, appsflyer: null, clarity: null },
    });
    expect(state.analytics.tracking.user_data.uuid).toBe(visitor);
    expect(state.screen).toBe('one_pager');
  });

  it('names no collector when analytics is switched off, so the tracker sends nothing', async () => {
    const state = await pageState(await freshApp({}, { ANALYTICS: 'off' })('/', US));
    expect(state.analytics.collector).toBeNull();
  });

  it('names the ad tools the deployment configured', async () => {
    const fetchApp = freshApp(
      {},
      {
        META_PIXEL_ID: '1234567890',
        TIKTOK_PIXEL_ID: ' ',
        GOOGLE_ADS_ID: 'AW-555',
        GOOGLE_ADS_CONVERSION_LABEL: 'purchaseLabel',
        APPSFLYER_DEV_KEY: 'af-key',
        CLARITY_PROJECT_ID: 'abcde12345',
      },
    );
    const { analytics } = await pageState(await fetchApp('/', US));
    expect(analytics.pixels).toEqual({
      meta: '1234567890',
      tiktok: null,
      googleAds: { id: 'AW-555', conversionLabel: 'purchaseLabel' },
      appsflyer: 'af-key',
      clarity: 'abcde12345',
    });
    expect(analytics.tracking).toMatchObject({
      fb_pixel_id: '1234567890',
      google_tracking_id: 'AW-555',
    });
    expect(analytics.tracking).not.toHaveProperty('tt_pixel_id');
  });
});

describe('attribution on the first request (SPEC.md §3)', () => {
  it('sets _fbc from the fbclid, _fbp and _ttp, as first-party cookies the pixels can read', async () => {
    const before = Date.now();
    const response = await freshApp()('/?fbclid=IwAR2F4-dbP0l7Mn&gclid=Cj0KCQ&ttclid=E.C.P.x', US);
    const cookies = setCookies(response);
    expect(cookies.get('_fbc')).toMatch(/^fb\.1\.\d{13}\.IwAR2F4-dbP0l7Mn$/);
    expect(Number(cookies.get('_fbc')?.split('.')[2])).toBeGreaterThanOrEqual(before);
    expect(cookies.get('_fbp')).toMatch(/^fb\.1\.\d{13}\.\d{10}$/);
    expect(cookies.get('_ttp')).toMatch(/^[a-f0-9]{32}$/);
    const fbc = response.headers.getSetCookie().find((cookie) => cookie.startsWith('_fbc='));
    expect(fbc).toContain('Max-Age=7776000');
    expect(fbc).toContain('Secure');
    expect(fbc).toContain('SameSite=Lax');
    expect(fbc).not.toContain('HttpOnly');
    // TikTok's pixel writes `_ttp=…; path=/` from script over the worker's: a browser lets it
    // only over a cookie scripts may write (not HttpOnly), of the same host and path, so the
    // visitor then holds one _ttp, the pixel's.
    const ttp = response.headers.getSetCookie().find((cookie) => cookie.startsWith('_ttp='));
    expect(ttp).toContain('Path=/;');
    expect(ttp).not.toContain('HttpOnly');
    expect(ttp).not.toContain('Domain=');

    const { tracking } = (await pageState(response)).analytics;
    expect(tracking.user_data).toMatchObject({
      fbc: cookies.get('_fbc'),
      fbp: cookies.get('_fbp'),
      ttp: cookies.get('_ttp'),
      fb_click_id: 'IwAR2F4-dbP0l7Mn',
      tt_click_id: 'E.C.P.x',
      google_click_id: 'Cj0KCQ',
    });
  });

  it('a returning visitor keeps their cookies: nothing is set again', async () => {
    const cookie = '_fbp=fb.1.1700000000000.1234567890; _ttp=0123456789abcdef0123456789abcdef';
    const response = await freshApp()('/signup', { headers: { ...US.headers, cookie } });
    expect(setCookies(response).has('_fbp')).toBe(false);
    expect(setCookies(response).has('_ttp')).toBe(false);
    const { tracking } = (await pageState(response)).analytics;
    expect(tracking.user_data.fbp).toBe('fb.1.1700000000000.1234567890');
  });

  it.each([
    '01JV8BFN75M3CKD94GVAWSG07T_.tt.1',
    '01JV8BFN75M3CKD94GVAWSG07T_.tt.0',
    '01JV8BFN75M3CKD94GVAWSG07T_.tt.1.1790477313544',
  ])("TikTok's pixel wrote _ttp=%s: the worker keeps it and sets no _ttp", async (ttp) => {
    const response = await freshApp()('/signup', {
      headers: { ...US.headers, cookie: `_ttp=${ttp}` },
    });
    expect(setCookies(response).has('_ttp')).toBe(false);
    expect((await pageState(response)).analytics.tracking.user_data.ttp).toBe(ttp);
  });

  it("beside an older _ttp of the worker's, the pixel's is the one used, page after page", async () => {
    const pixel = '01JV8BFN75M3CKD94GVAWSG07T_.tt.1';
    const fetchApp = freshApp();
    for (const cookie of [
      `_ttp=0123456789abcdef0123456789abcdef; _ttp=${pixel}`,
      `_ttp=${pixel}; _ttp=0123456789abcdef0123456789abcdef`,
    ]) {
      const response = await fetchApp('/signup', { headers: { ...US.headers, cookie } });
      expect(setCookies(response).has('_ttp')).toBe(false);
      expect((await pageState(response)).analytics.tracking.user_data.ttp).toBe(pixel);
    }
  });

  it("a forged _ttp (markup, overlong) is replaced by one of the worker's, and not shown", async () => {
    for (const forged of ['%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'x'.repeat(3000)]) {
      const response = await freshApp()('/signup', {
        headers: { ...US.headers, cookie: `_ttp=${forged}` },
      });
      const written = setCookies(response).get('_ttp');
      expect(written).toMatch(/^[a-f0-9]{32}$/);
      expect((await pageState(response)).analytics.tracking.user_data.ttp).toBe(written);
    }
  });

  it('where consent is required, no ad cookie is set until the visitor agrees', async () => {
    const fetchApp = freshApp();
    const asked = await fetchApp('/?fbclid=F1&ttclid=T1', { headers: { 'cf-ipcountry': 'DE' } });
    expect([...setCookies(asked).keys()].filter((name) => name.startsWith('_'))).toEqual([]);
    const state = (await pageState(asked)).analytics;
    expect(state.consent).toBe('pending');
    expect(state.tracking.user_data).toMatchObject({
      fbc: null,
      fbp: null,
      ttp: null,
      fb_click_id: 'F1',
    });

    const agreed = await fetchApp('/?fbclid=F1&ttclid=T1', {
      headers: { 'cf-ipcountry': 'DE', cookie: 'gf_consent=granted' },
    });
    expect(setCookies(agreed).get('_fbc')).toMatch(/\.F1$/);
    expect(setCookies(agreed).get('_gf_ttclid')).toBe('T1');
    expect((await pageState(agreed)).analytics.consent).toBe('granted');

    const refused = await fetchApp('/?fbclid=F1&ttclid=T1', {
      headers: { 'cf-ipcountry': 'DE', cookie: 'gf_consent=denied' },
    });
    expect(setCookies(refused).has('_fbc')).toBe(false);
    expect(setCookies(refused).has('_gf_ttclid')).toBe(false);
  });

  it('keeps the ttclid in _gf_ttclid for 28 days, unseen by scripts, until a new click', async () => {
    const fetchApp = freshApp();
    const clicked = await fetchApp('/?ttclid=E.C.P.CqgBfirst-click_1', US);
    const written = clicked.headers.getSetCookie().find((c) => c.startsWith('_gf_ttclid='));
    expect(written).toBe(
      '_gf_ttclid=E.C.P.CqgBfirst-click_1; Max-Age=2419200; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    const kept = `_ttp=0123456789abcdef0123456789abcdef; _fbp=fb.1.1700000000000.1; _gf_ttclid=E.C.P.CqgBfirst-click_1`;
    for (const path of ['/signup', '/?ttclid=E.C.P.CqgBfirst-click_1', '/?ttclid=%3Cjunk%3E']) {
      const later = await fetchApp(path, { headers: { ...US.headers, cookie: kept } });
      expect(setCookies(later).has('_gf_ttclid'), path).toBe(false);
    }
    const again = await fetchApp('/?ttclid=E.C.P.second', {
      headers: { ...US.headers, cookie: kept },
    });
    expect(setCookies(again).get('_gf_ttclid')).toBe('E.C.P.second');
  });

  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['app.example.com', 'https://app.example.com'],
    ['https://app.example.com.evil.com', 'https://funnel.example.com'],
    ['https://app.example.com@evil.com', 'https://funnel.example.com'],
    ['//evil.com', 'https://funnel.example.com'],
    ['javascript:alert(1)', 'https://funnel.example.com'],
  ])('appDomain=%s is sent as %s', async (requested, origin) => {
    const fetchApp = freshApp(
      {},
      { APP_DOMAINS: 'https://funnel.example.com,https://app.example.com' },
    );
    const response = await fetchApp(`/?appDomain=${encodeURIComponent(requested)}`, US);
    const { tracking } = (await pageState(response)).analytics;
    expect(tracking.user_data.source_url).toBe(encodeURIComponent(origin));
  });

  it('the API and the collector set no ad cookies', async () => {
    const response = await freshApp()('/api/cf-country?fbclid=F1', US);
    expect(response.status).toBe(200);
    expect([...setCookies(response).keys()].filter((name) => name.startsWith('_'))).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  cryptoSources,
  planAdCookies,
  storedAdCookies,
  validAdCookies,
} from '../../../worker/attribution/ad-cookies';
import { readClickIds } from '../../../worker/attribution/click-ids';
import { googleClientId, trackingData } from '../../../worker/attribution/tracking-data';

const NOW = 1_790_000_000_123;
const NO_CLICKS = { fbclid: null, ttclid: null };
const sources = {
  now: NOW,
  randomDigits: () => '0123456789',
  randomId: () => 'ttpRandomId0123456789AB',
};

describe('the first-party ad cookies (SPEC.md §3 stored keys)', () => {
  it("a first visit gets _fbp and _ttp in the networks' formats, and _fbc only with an fbclid", () => {
    expect(planAdCookies(storedAdCookies(undefined), NO_CLICKS, sources)).toEqual({
      values: {
        fbc: null,
        fbp: `fb.1.${NOW}.0123456789`,
        ttp: 'ttpRandomId0123456789AB',
        ttclid: null,
      },
      write: { fbp: `fb.1.${NOW}.0123456789`, ttp: 'ttpRandomId0123456789AB' },
    });
    const clicked = planAdCookies({}, { fbclid: 'IwAR2F4-dbP0l7Mn1Iaw', ttclid: null }, sources);
    expect(clicked.write.fbc).toBe(`fb.1.${NOW}.IwAR2F4-dbP0l7Mn1Iaw`);
  });

  it('a returning visitor keeps their cookies; the same fbclid again keeps the click time', () => {
    const stored = storedAdCookies(
      '_fbc=fb.1.1700000000000.IwAR2F4-dbP0l7Mn1Iaw; _fbp=fb.1.1700000000000.9876543210; _ttp=storedTtpValue0123456789',
    );
    expect(
      planAdCookies(stored, { fbclid: 'IwAR2F4-dbP0l7Mn1Iaw', ttclid: null }, sources),
    ).toEqual({
      values: {
        fbc: 'fb.1.1700000000000.IwAR2F4-dbP0l7Mn1Iaw',
        fbp: 'fb.1.1700000000000.9876543210',
        ttp: 'storedTtpValue0123456789',
        ttclid: null,
      },
      write: {},
    });
  });

  it('a new fbclid replaces _fbc (the last click counts), keeping the case of the click id', () => {
    const plan = planAdCookies(
      storedAdCookies(
        '_fbc=fb.1.1700000000000.OldClick; _fbp=fb.1.1700000000000.1; _ttp=storedTtpValue0123456789',
      ),
      { fbclid: 'NewClick.With.Dots', ttclid: null },
      sources,
    );
    expect(plan.write).toEqual({ fbc: `fb.1.${NOW}.NewClick.With.Dots` });
  });

  it('malformed stored values are replaced', () => {
    const plan = planAdCookies(
      storedAdCookies('_fbc=garbage; _fbp=fb.1.x.1; _ttp=%3Cscript%3E'),
      NO_CLICKS,
      sources,
    );
    expect(plan.values.fbc).toBeNull();
    expect(plan.write).toEqual({ fbp: `fb.1.${NOW}.0123456789`, ttp: 'ttpRandomId0123456789AB' });
  });

  it('real randomness fits the formats', () => {
    const plan = planAdCookies(storedAdCookies(''), NO_CLICKS, cryptoSources(NOW));
    expect(plan.values.fbp).toMatch(new RegExp(`^fb\\.1\\.${NOW}\\.\\d{10}$`));
    expect(plan.values.ttp).toMatch(/^[a-f0-9]{32}$/);
  });
});

/** _ttp values as TikTok's pixel writes them today (a ULID, `_.tt.`, a digit, maybe `.<ms>`). */
const PIXEL_TTPS = [
  '01JV8BFN75M3CKD94GVAWSG07T_.tt.1',
  '01JV8BFN75M3CKD94GVAWSG07T_.tt.0',
  '01JV8BFN75M3CKD94GVAWSG07T_.tt.1.1790477313544',
];
const OUR_TTP = '0123456789abcdef0123456789abcdef';

describe("TikTok's _ttp (SPEC.md §3 stored keys)", () => {
  it.each(PIXEL_TTPS)('takes the pixel-written %s and writes no _ttp of its own', (ttp) => {
    const plan = planAdCookies(storedAdCookies(`_ttp=${ttp}`), NO_CLICKS, sources);
    expect(plan.values.ttp).toBe(ttp);
    expect(plan.write).not.toHaveProperty('ttp');
  });

  it.each([
    ['our own random id', OUR_TTP],
    ['an older base64url id', 'Zk3Hq0vY_bT-4uWnLmAeHc'],
    ['a dotted base64 id', 'aGVsbG8rd29ybGQ/Zm9v.bar=='],
  ])('takes %s as an opaque id', (_, ttp) => {
    expect(validAdCookies(storedAdCookies(`_ttp=${ttp}`)).ttp).toBe(ttp);
  });

  it.each([
    ['too short', 'abc123'],
    ['over 256 characters', 'a'.repeat(257)],
    ['markup', '%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
    ['a space', '01JV8BFN75M3CKD94GVA%20WSG07T_.tt.1'],
    ['a comma', '01JV8BFN75M3CKD94GVA%2CWSG07T_.tt.1'],
    ['a semicolon, once decoded', '01JV8BFN75M3CKD94GVA%3BWSG07T_.tt.1'],
    ['a control character', '01JV8BFN75M3CKD94GVA%0AWSG07T_.tt.1'],
    ['a quote', '01JV8BFN75M3CKD94GVA%22WSG07T_.tt.1'],
    ['a broken escape', '01JV8BFN75M3CKD94GVAWSG07T%E0%A4%A'],
  ])('refuses one with %s, and writes its own', (_, raw) => {
    const plan = planAdCookies(storedAdCookies(`_ttp=${raw}`), NO_CLICKS, sources);
    expect(plan.values.ttp).toBe('ttpRandomId0123456789AB');
    expect(plan.write.ttp).toBe('ttpRandomId0123456789AB');
  });

  it("of two _ttp cookies, takes the pixel's whichever comes first, and writes nothing", () => {
    const [pixel = ''] = PIXEL_TTPS;
    for (const header of [`_ttp=${OUR_TTP}; _ttp=${pixel}`, `_ttp=${pixel}; _ttp=${OUR_TTP}`]) {
      const plan = planAdCookies(storedAdCookies(header), NO_CLICKS, sources);
      expect(plan.values.ttp).toBe(pixel);
      expect(plan.write).not.toHaveProperty('ttp');
    }
  });

  it('of a malformed and a valid _ttp, takes the valid one and writes nothing', () => {
    const plan = planAdCookies(
      storedAdCookies(`_ttp=%3Cjunk%3E; _fbp=fb.1.1700000000000.1; _ttp=${OUR_TTP}`),
      NO_CLICKS,
      sources,
    );
    expect(plan).toEqual({
      values: { fbc: null, fbp: 'fb.1.1700000000000.1', ttp: OUR_TTP, ttclid: null },
      write: {},
    });
  });
});

describe('the TikTok click id cookie, _gf_ttclid', () => {
  const KEPT = `_fbp=fb.1.1700000000000.1; _ttp=${OUR_TTP}`;
  const clicked = (ttclid: string | null) => ({ fbclid: null, ttclid });

  it('a URL with a ttclid writes it, as it came', () => {
    const plan = planAdCookies(storedAdCookies(KEPT), clicked('E.C.P.CqgBNew_1-x~'), sources);
    expect(plan.write).toEqual({ ttclid: 'E.C.P.CqgBNew_1-x~' });
    expect(plan.values.ttclid).toBe('E.C.P.CqgBNew_1-x~');
  });

  it('kept on a later page without one, and the same one again writes nothing', () => {
    const stored = storedAdCookies(`${KEPT}; _gf_ttclid=E.C.P.Old`);
    for (const clicks of [clicked(null), clicked('E.C.P.Old')]) {
      const plan = planAdCookies(stored, clicks, sources);
      expect(plan.write).toEqual({});
      expect(plan.values.ttclid).toBe('E.C.P.Old');
    }
  });

  it('a new click replaces it: the last click counts', () => {
    const plan = planAdCookies(
      storedAdCookies(`${KEPT}; _gf_ttclid=E.C.P.Old`),
      clicked('E.C.P.New'),
      sources,
    );
    expect(plan.write).toEqual({ ttclid: 'E.C.P.New' });
  });

  it.each([
    ['markup', '%3Cscript%3E'],
    ['over 500 characters', 'a'.repeat(501)],
    ['a space', 'E.C.P%20x'],
  ])('a kept one with %s counts as none, and is not written back', (_, raw) => {
    const plan = planAdCookies(storedAdCookies(`${KEPT}; _gf_ttclid=${raw}`), NO_CLICKS, sources);
    expect(plan.values.ttclid).toBeNull();
    expect(plan.write).toEqual({});
  });
});

describe('click ids (SPEC.md §3 attribution parameters)', () => {
  it('reads them case-sensitively and ignores hand-edited junk', () => {
    const ids = readClickIds(
      new URLSearchParams(
        'fbclid=IwAR2F4-dbP0&gclid=Cj0KCQ_abc&ttclid=E.C.P.abc&gbraid=0AAA&wbraid=%3Cscript%3E',
      ),
    );
    expect(ids).toEqual({
      fbclid: 'IwAR2F4-dbP0',
      gclid: 'Cj0KCQ_abc',
      ttclid: 'E.C.P.abc',
      gbraid: '0AAA',
      wbraid: null,
    });
    expect(readClickIds(new URLSearchParams(`fbclid=${'a'.repeat(501)}`)).fbclid).toBeNull();
  });
});

describe('the tracking user data (SPEC.md §3)', () => {
  const clicks = readClickIds(new URLSearchParams('fbclid=F1&wbraid=W1&ttclid=T1'));
  const base = {
    visitorId: '3f0c6f5e-8a1b-4c2d-9e3f-0a1b2c3d4e5f',
    clicks,
    cookies: { fbc: 'fb.1.1.F1', fbp: 'fb.1.1.2', ttp: 'ttpValue0123456789', ttclid: 'T0' },
    appDomain: 'https://app.example.com',
    appsflyerId: null,
    googleAnalyticsCookie: 'GA1.1.1234567890.1700000000',
  };

  it('carries the ids, the encoded app domain and the pixel the deployment runs', () => {
    expect(
      trackingData({
        ...base,
        ids: { metaPixelId: '123', tiktokPixelId: null, googleTagId: 'G-X' },
      }),
    ).toEqual({
      appsflyer_id: null,
      google_tracking_id: 'G-X',
      google_client_id: '1234567890.1700000000',
      fb_pixel_id: '123',
      user_data: {
        uuid: base.visitorId,
        fbc: 'fb.1.1.F1',
        fbp: 'fb.1.1.2',
        fb_click_id: 'F1',
        ttp: 'ttpValue0123456789',
        tt_click_id: 'T1',
        source_url: 'https%3A%2F%2Fapp.example.com',
        google_click_id: 'W1',
      },
    });
  });

  it('names no pixel when none is configured', () => {
    const data = trackingData({
      ...base,
      ids: { metaPixelId: null, tiktokPixelId: null, googleTagId: null },
    });
    expect(data).not.toHaveProperty('fb_pixel_id');
    expect(data).not.toHaveProperty('tt_pixel_id');
  });

  it('reads the client id of a _ga cookie only', () => {
    expect(googleClientId('GA1.2.111.222')).toBe('111.222');
    expect(googleClientId('not-a-ga-cookie')).toBeNull();
    expect(googleClientId(null)).toBeNull();
  });
});

import { base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  PREVIEW_TTL_SECONDS,
  readPreviewCookie,
  signPreview,
  signRouteLink,
  signRoutePreview,
  verifyPreview,
  verifyPreviewLink,
} from '../../worker/preview/preview';

const KEY = 'preview-key-for-tests';
/** The browser that opened the preview: a cookie's token is signed for its visitor id. */
const VISITOR = '6f1c2a52-3b7e-4f0a-9d2c-8e5b1a7c4d30';
/** Another browser, into which the cookie's value was copied. */
const OTHER_VISITOR = '0b9e4d7a-51c3-4e28-a6f0-2d8c7b3e9a14';
/** The marketer Cloudflare Access let into the console, who opened the preview. */
const MARKETER = 'anna@example.com';
const HOLDER = { visitorId: VISITOR, author: MARKETER };
const OTHER_BROWSER = { visitorId: OTHER_VISITOR, author: MARKETER };

/** A request's holder as readPreviewCookie asks for it: its visitor id, and who Access says. */
const asked = (visitorId: string | null, author: string | null = MARKETER) => ({
  visitorId,
  author: async () => author,
});
/** 2026-11-22T08:00:00Z, in epoch seconds. */
const NOW_S = Date.UTC(2026, 10, 22, 8) / 1000;
const NOW_MS = NOW_S * 1000;
const IN_AN_HOUR = NOW_S + PREVIEW_TTL_SECONDS;

/** `token` with segment `index` replaced. */
function withSegment(token: string, index: number, segment: string): string {
  const parts = token.split('.');
  parts[index] = segment;
  return parts.join('.');
}

describe('a preview token', () => {
  it.each(['lp1', 'lp11ch8/vc', 'odd.key with spaces', 'ключ'])(
    'names the variant it was signed for (%s) until it expires',
    async (variant) => {
      const token = await signPreview(KEY, variant, IN_AN_HOUR, HOLDER);
      expect(token).toMatch(/^[\w-]+\.\d+\.[\w-]{43}$/);
      expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
        ok: true,
        variant,
        expiresAt: IN_AN_HOUR,
      });
    },
  );

  it('is expired from the second it names on', async () => {
    const token = await signPreview(KEY, 'lp1', IN_AN_HOUR, HOLDER);
    expect((await verifyPreview(KEY, token, IN_AN_HOUR * 1000 - 1, HOLDER)).ok).toBe(true);
    expect(await verifyPreview(KEY, token, IN_AN_HOUR * 1000, HOLDER)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('signed with another key is refused', async () => {
    const token = await signPreview('someone-elses-key', 'lp1', IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('with another variant, a later expiry or another signature is refused', async () => {
    const token = await signPreview(KEY, 'lp1', IN_AN_HOUR, HOLDER);
    const other = await signPreview(KEY, 'lp2', IN_AN_HOUR, HOLDER);
    const tampered = [
      withSegment(token, 0, base64url.encode('lp2')),
      withSegment(token, 1, String(IN_AN_HOUR + 86_400)),
      withSegment(token, 2, other.split('.')[2]!),
    ];
    for (const each of tampered) {
      expect(await verifyPreview(KEY, each, NOW_MS, HOLDER), each).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
  });

  it('a forged one is reported as forged even when the time it names has passed', async () => {
    const forged = await signPreview('someone-elses-key', 'lp1', NOW_S - 60, HOLDER);
    expect(await verifyPreview(KEY, forged, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it.each([
    ['empty', ''],
    ['one segment', 'bHAx'],
    ['two segments', 'bHAx.1795334400'],
    ['four segments', 'bHAx.1795334400.x.y'],
    ['an expiry that is not a number', 'bHAx.soon.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a negative expiry', 'bHAx.-1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a signature that is not base64url', 'bHAx.1795334400.!!!!'],
    ['a signature of the wrong length', 'bHAx.1795334400.AAAA'],
    [
      'a variant that is not base64url',
      '%%%.1795334400.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
  ])('%s is malformed', async (_, token) => {
    expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});

describe('a route preview token', () => {
  const ROUTE = { id: 'tiktok_de', flow: 'lp17ch17pr5', plans: ['quarterly', 'monthly'] };

  it('names the route, its flow and plans until it expires', async () => {
    const token = await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER);
    expect(token).toMatch(/^r\.[\w-]+\.\d+\.[\w-]+$/);
    expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
      ok: true,
      route: ROUTE,
      expiresAt: IN_AN_HOUR,
    });
    expect(await verifyPreview(KEY, token, IN_AN_HOUR * 1000, HOLDER)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('carries the route’s upsell and guide plans when it sets them', async () => {
    const route = { ...ROUTE, upsellPlans: ['upsell_monthly_799'], guidePlans: ['guide_1799'] };
    const token = await signRoutePreview(KEY, route, IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
      ok: true,
      route,
      expiresAt: IN_AN_HOUR,
    });
    const bad = await signRoutePreview(
      KEY,
      { ...ROUTE, upsellPlans: ['Not A Plan'] },
      IN_AN_HOUR,
      HOLDER,
    );
    expect(await verifyPreview(KEY, bad, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('is refused when signed with another key or when its route is swapped', async () => {
    const forged = await signRoutePreview('someone-elses-key', ROUTE, IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, forged, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const token = await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER);
    const other = base64url.encode(JSON.stringify({ ...ROUTE, flow: 'default' }));
    expect(await verifyPreview(KEY, withSegment(token, 1, other), NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('cannot be made from a variant token, nor read as one', async () => {
    // A variant key may hold any character, "r" and dots among them: the mark and the fourth
    // part keep the two kinds apart, and the signature covers the mark.
    const variant = await signPreview(KEY, 'r', IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, `r.${variant}`, NOW_MS, HOLDER)).toMatchObject({ ok: false });
    const route = await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, route.slice(2), NOW_MS, HOLDER)).toMatchObject({ ok: false });
  });

  it('is malformed when its signed route is not one the console could name', async () => {
    const token = await signRoutePreview(KEY, { ...ROUTE, id: 'Not A Slug' }, IN_AN_HOUR, HOLDER);
    expect(await verifyPreview(KEY, token, NOW_MS, HOLDER)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});

describe('a preview cookie’s token is bound to the browser that opened the link', () => {
  const ROUTE = { id: 'tiktok_de', flow: 'lp17ch17pr5', plans: ['quarterly'] };

  it('verifies for the visitor id it was signed for, and is forged for any other', async () => {
    const tokens = [
      await signPreview(KEY, 'lp1', IN_AN_HOUR, HOLDER),
      await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER),
    ];
    for (const token of tokens) {
      expect((await verifyPreview(KEY, token, NOW_MS, HOLDER)).ok, token).toBe(true);
      expect(await verifyPreview(KEY, token, NOW_MS, OTHER_BROWSER), token).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
  });

  it('is no preview in a browser without a visitor id, and costs no verify there', async () => {
    const token = await signPreview(KEY, 'lp1', IN_AN_HOUR, HOLDER);
    expect(await readPreviewCookie(token, KEY, NOW_MS, asked(VISITOR))).toEqual({
      state: 'valid',
      variant: 'lp1',
    });
    expect(await readPreviewCookie(token, KEY, NOW_MS, asked(OTHER_VISITOR))).toEqual({
      state: 'invalid',
      reason: 'bad_signature',
    });
    expect(await readPreviewCookie(token, KEY, NOW_MS, asked(null))).toEqual({
      state: 'invalid',
      reason: 'no_visitor_id',
    });
  });

  it('is bound to the marketer too: a pair lent to someone else, or nobody signed in, previews nothing', async () => {
    const tokens = [
      await signPreview(KEY, 'lp1', IN_AN_HOUR, HOLDER),
      await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER),
    ];
    for (const token of tokens) {
      // The same browser's visitor id, another person signed in.
      expect(
        await readPreviewCookie(token, KEY, NOW_MS, asked(VISITOR, 'bob@example.com')),
      ).toEqual({ state: 'invalid', reason: 'bad_signature' });
      // The pair copied out of the marketer's browser: nobody signed in through Access there.
      expect(await readPreviewCookie(token, KEY, NOW_MS, asked(VISITOR, null))).toEqual({
        state: 'invalid',
        reason: 'no_identity',
      });
    }
    // Who the holder is is asked only when there is a cookie.
    let askedWho = 0;
    const counting = {
      visitorId: VISITOR,
      author: async () => {
        askedWho += 1;
        return MARKETER;
      },
    };
    expect(await readPreviewCookie(undefined, KEY, NOW_MS, counting)).toEqual({ state: 'none' });
    expect(askedWho).toBe(0);
  });

  it('a link’s token opens in any browser, but never passes for a cookie’s, nor the reverse', async () => {
    const link = await signRouteLink(KEY, ROUTE, IN_AN_HOUR);
    expect(await verifyPreviewLink(KEY, link, NOW_MS)).toEqual({
      ok: true,
      route: ROUTE,
      expiresAt: IN_AN_HOUR,
    });
    // Nor for an empty visitor id, which is what an unbound text would need.
    for (const visitor of [VISITOR, '']) {
      expect(
        await verifyPreview(KEY, link, NOW_MS, { visitorId: visitor, author: MARKETER }),
      ).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
    const cookie = await signRoutePreview(KEY, ROUTE, IN_AN_HOUR, HOLDER);
    expect(await verifyPreviewLink(KEY, cookie, NOW_MS)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });
});

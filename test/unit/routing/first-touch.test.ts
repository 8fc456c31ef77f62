import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeFirstTouch,
  encodeFirstTouch,
  type FirstTouch,
  SOURCES,
  sourceOf,
  takeFirstTouch,
  touchParams,
} from '../../../worker/routing/first-touch';

const HOST = 'funnel.test';
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

function touchOf(query: string, referrer: string | null = null, country: string | null = 'DE') {
  return takeFirstTouch({ url: new URL(`https://${HOST}/?${query}`), referrer, country, now: NOW });
}

describe('the source of a visit', () => {
  it.each([
    ['fbclid=IwAR0abc', null, 'meta'],
    ['ttclid=E.C.P.abc', null, 'tiktok'],
    ['gclid=Cj0KCQ', null, 'google'],
    ['gbraid=0AAAAA', null, 'google'],
    ['wbraid=CjkKCQ', null, 'google'],
    // A click id outranks what the link was tagged with.
    ['ttclid=E.C.P.abc&utm_source=facebook', null, 'tiktok'],
    ['utm_source=fb', null, 'meta'],
    ['utm_source=Instagram', null, 'meta'],
    ['utm_source=TikTok', null, 'tiktok'],
    ['utm_source=newsletter', null, 'other'],
    ['', 'https://www.google.de/search?q=locate', 'organic'],
    ['', 'https://duckduckgo.com/', 'organic'],
    ['', 'https://blog.example.com/review', 'referral'],
    // Our own pages refer to each other: that is no source.
    ['', `https://${HOST}/features`, 'direct'],
    ['', null, 'direct'],
  ])('?%s from %s is %s', (query, referrer, source) => {
    expect(sourceOf(new URLSearchParams(query), referrer, HOST)).toBe(source);
  });

  it('a malformed click id or utm_source counts as absent', () => {
    expect(sourceOf(new URLSearchParams('fbclid=<script>'), null, HOST)).toBe('direct');
    expect(sourceOf(new URLSearchParams(`utm_source=${'x'.repeat(101)}`), null, HOST)).toBe(
      'direct',
    );
    expect(sourceOf(new URLSearchParams('utm_source=%00fb'), null, HOST)).toBe('direct');
    // An alias map's own keys are not Object.prototype's.
    expect(sourceOf(new URLSearchParams('utm_source=constructor'), null, HOST)).toBe('other');
  });
});

describe('the first touch', () => {
  it('keeps the UTM parameters as tagged, the entry alias, the country and the time', () => {
    expect(
      touchOf('utm_source=tiktok&utm_medium=paid&utm_campaign=DE%20Black%20Friday&r=BF24'),
    ).toEqual({
      source: 'tiktok',
      click_id: null,
      utm: {
        source: 'tiktok',
        medium: 'paid',
        campaign: 'DE Black Friday',
        content: null,
        term: null,
      },
      entry: 'bf24',
      country: 'DE',
      began_at: NOW,
    } satisfies FirstTouch);
  });

  it('drops what a link could not mean: control characters, long values, odd aliases', () => {
    const touch = touchOf(`utm_campaign=a%0Ab&utm_term=${'t'.repeat(200)}&r=../admin`, null, 'xx');
    expect(touch.utm.campaign).toBeNull();
    expect(touch.utm.term).toBeNull();
    expect(touch.entry).toBeNull();
    expect(touch.country).toBeNull();
  });

  it('any query string and referrer give a first touch of known values, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.option(fc.string()), (query, referrer) => {
        const touch = takeFirstTouch({
          url: new URL(`https://${HOST}/?${encodeURI(query)}`),
          referrer,
          country: 'US',
          now: NOW,
        });
        expect(SOURCES).toContain(touch.source);
        for (const value of Object.values(touch.utm)) {
          if (value !== null) expect(value.length).toBeLessThanOrEqual(100);
        }
        // Whatever was taken survives its own cookie exactly.
        expect(decodeFirstTouch(encodeFirstTouch(touch))).toEqual(touch);
      }),
    );
  });
});

describe('the cookie', () => {
  const touch = touchOf('utm_source=fb&utm_campaign=Kampagne%20%C3%BC&r=summer');

  it('reads back what it wrote, non-ASCII included', () => {
    expect(decodeFirstTouch(encodeFirstTouch(touch))).toEqual(touch);
  });

  it('a forged or broken cookie is no first touch', () => {
    const forge = (data: unknown) => Buffer.from(JSON.stringify(data)).toString('base64url');
    expect(decodeFirstTouch(undefined)).toBeNull();
    expect(decodeFirstTouch('not base64!')).toBeNull();
    expect(decodeFirstTouch(forge('text'))).toBeNull();
    expect(decodeFirstTouch(forge({ ...touch, v: 2 }))).toBeNull();
    expect(decodeFirstTouch(forge({ ...touch, v: 1, source: 'bot' }))).toBeNull();
    expect(decodeFirstTouch(forge({ ...touch, v: 1, entry: 'DROP TABLE' }))).toBeNull();
    expect(
      decodeFirstTouch(forge({ ...touch, v: 1, utm: { ...touch.utm, campaign: 'x'.repeat(500) } })),
    ).toBeNull();
    expect(decodeFirstTouch('A'.repeat(5000))).toBeNull();
    expect(decodeFirstTouch(forge({ ...touch, v: 1 }))).toEqual(touch);
  });

  it('keeps the network of a click id, not the id, and only as the source it makes', () => {
    const clicked = touchOf('utm_source=tiktok&ttclid=E.C.P.CsUBa1b2c3d4e5f6');
    expect(clicked).toMatchObject({ source: 'tiktok', click_id: 'tiktok' });
    const cookie = encodeFirstTouch(clicked);
    expect(Buffer.from(cookie, 'base64url').toString()).not.toContain('E.C.P');
    expect(decodeFirstTouch(cookie)).toEqual(clicked);
    // A visit without one writes no field: the cookie is as long as before there was one.
    const plain = touchOf('utm_source=tiktok');
    expect(plain.click_id).toBeNull();
    expect(Buffer.from(encodeFirstTouch(plain), 'base64url').toString()).not.toContain('click');
    expect(encodeFirstTouch(clicked).length - encodeFirstTouch(plain).length).toBeLessThan(30);

    const forge = (data: unknown) => Buffer.from(JSON.stringify(data)).toString('base64url');
    const { click_id: _, ...written } = { ...clicked, v: 1 };
    // Written before the field existed: no click id.
    expect(decodeFirstTouch(forge(written))).toEqual({ ...clicked, click_id: null });
    expect(decodeFirstTouch(forge({ ...written, click_id: 'ttclid' }))).toBeNull();
    expect(decodeFirstTouch(forge({ ...written, click_id: 'none' }))).toBeNull();
    // A TikTok click id makes a TikTok source; a cookie saying otherwise was not ours.
    expect(decodeFirstTouch(forge({ ...written, click_id: 'meta' }))).toBeNull();
  });
});

describe('the parameters a first touch reads', () => {
  it.each([
    ['utm_campaign=bf24&r=x&other=1&other=2', { utm_campaign: 'bf24', r: 'x' }],
    [
      '?utm_term=phone+tracker&utm_content=a%20b',
      { utm_term: 'phone tracker', utm_content: 'a b' },
    ],
    // Repeated: which one was meant is anyone's guess.
    ['utm_campaign=a&utm_campaign=b&r=x', { r: 'x' }],
    ['ttclid=abc&ttclid=abc', {}],
    // Not validly percent-encoded.
    ['utm_campaign=bf%ZZ&utm_source=fb', { utm_source: 'fb' }],
    ['utm_campaign=bf%E0%A4%A', {}],
    ['utm_campaign=bf%FF', {}],
    ['utm_campaign=bf%', {}],
    // Names we never read are left out, however many.
    ['a=1&b=2&&=&utm_medium', { utm_medium: '' }],
  ])('%s', (search, expected) => {
    expect(Object.fromEntries(touchParams(search))).toEqual(expected);
  });
});

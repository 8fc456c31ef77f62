import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptedAppDomain,
  bareOrigin,
  parseOriginList,
} from '../../../worker/attribution/tracking-data';

const ALLOWED = ['https://app.example.com', 'https://family.example.org'];
const DEFAULT = 'https://funnel.example.net';

describe('appDomain is accepted only when it is exactly an allowed origin', () => {
  it.each([
    ['https://app.example.com', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['app.example.com', 'https://app.example.com'],
    ['HTTPS://APP.EXAMPLE.COM', 'https://app.example.com'],
    ['  https://family.example.org ', 'https://family.example.org'],
  ])('%j names %s', (requested, origin) => {
    expect(acceptedAppDomain(requested, ALLOWED, DEFAULT)).toBe(origin);
  });

  it.each([
    '//evil.com',
    '//app.example.com',
    'app.example.com.evil.com',
    'https://app.example.com.evil.com',
    'app.example.com@evil.com',
    'https://app.example.com@evil.com',
    'https://evil.com@app.example.com',
    'https://user:pass@app.example.com',
    'javascript:alert(1)',
    'JavaScript://app.example.com/%0aalert(1)',
    'data:text/html,app.example.com',
    'https%3A%2F%2Fapp.example.com',
    'https%3A%2F%2Fevil.com',
    'https://app.example.com%2F@evil.com',
    'https://app.example.com/path',
    'https://app.example.com?x=1',
    'https://app.example.com#top',
    'https:app.example.com',
    'https:/app.example.com',
    'https://app.example.com:8443',
    'http://app.example.com',
    'https://app.example.com\\@evil.com',
    'ftp://app.example.com',
    'https://app.example.com\u0000.evil.com',
    'https://xn--pp-8ma.example.com',
    '',
  ])('%j falls back to the default', (requested) => {
    expect(acceptedAppDomain(requested, ALLOWED, DEFAULT)).toBe(DEFAULT);
  });

  it('no parameter means the default', () => {
    expect(acceptedAppDomain(null, ALLOWED, DEFAULT)).toBe(DEFAULT);
  });

  it('whatever the input, the answer is an allowed origin or the default', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc
            .constantFrom(...ALLOWED)
            .chain((origin) =>
              fc.tuple(fc.string(), fc.string()).map(([before, after]) => before + origin + after),
            ),
        ),
        (requested) => {
          expect([...ALLOWED, DEFAULT]).toContain(acceptedAppDomain(requested, ALLOWED, DEFAULT));
        },
      ),
    );
  });
});

describe('the allowed list (APP_DOMAINS)', () => {
  it('keeps the entries that are origins and drops the rest', () => {
    expect(
      parseOriginList(
        ' https://a.example.com, b.example.com ,https://c.example.com/x,,javascript:1',
      ),
    ).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(parseOriginList(undefined)).toEqual([]);
  });

  it('a bare origin is recognised with or without its trailing slash', () => {
    expect(bareOrigin('https://a.example.com:8443/')).toBe('https://a.example.com:8443');
    expect(bareOrigin('https://a.example.com/#')).toBeNull();
  });
});

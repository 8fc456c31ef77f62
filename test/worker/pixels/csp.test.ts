import { describe, expect, it } from 'vitest';
import { freshApp } from '../fetch-app';

/** The page's CSP as directive name → its source list. */
async function pagePolicy(bindings: Partial<Cloudflare.Env>): Promise<Map<string, string[]>> {
  const response = await freshApp({}, bindings)('/', { headers: { 'cf-ipcountry': 'US' } });
  const csp = response.headers.get('content-security-policy') ?? '';
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const META = ['https://connect.facebook.net', 'https://www.facebook.com'];
const TIKTOK = ['https://analytics.tiktok.com', 'https://analytics-ipv6.tiktokw.us'];
const GOOGLE = [
  'https://www.googletagmanager.com',
  'https://www.google.com',
  'https://www.googleadservices.com',
  'https://googleads.g.doubleclick.net',
];
const ANY_PIXEL_HOST =
  /facebook|tiktok|googletagmanager|googleadservices|doubleclick|www\.google\.com/;

describe('the CSP admits an ad pixel only where it is configured', () => {
  it('none configured: no pixel host anywhere', async () => {
    const policy = await pagePolicy({ META_PIXEL_ID: '', TIKTOK_PIXEL_ID: ' ' });
    for (const [name, sources] of policy) {
      expect(
        sources.filter((source) => ANY_PIXEL_HOST.test(source)),
        name,
      ).toEqual([]);
    }
  });

  it('Meta: its script host and www.facebook.com for fetches, www.facebook.com for images', async () => {
    const policy = await pagePolicy({ META_PIXEL_ID: '1234567890' });
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(META));
    expect(policy.get('img-src')).toContain('https://www.facebook.com');
    expect(policy.get('connect-src')?.join(' ')).not.toMatch(/tiktok|googleadservices/);
  });

  it('TikTok: its analytics hosts for fetches and images', async () => {
    const policy = await pagePolicy({ TIKTOK_PIXEL_ID: 'CTIKTOK123' });
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(TIKTOK));
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(TIKTOK));
    expect(policy.get('connect-src')?.join(' ')).not.toMatch(/facebook|googleadservices/);
  });

  it('Google Ads: the tag, its conversion and its ad-click hosts', async () => {
    const policy = await pagePolicy({ GOOGLE_ADS_ID: 'AW-555' });
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(GOOGLE));
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(GOOGLE));
    expect(policy.get('connect-src')?.join(' ')).not.toMatch(/facebook|tiktok/);
  });

  it('frames only for Google Ads, and none of them without it', async () => {
    const withAds = await pagePolicy({ GOOGLE_ADS_ID: 'AW-555' });
    expect(withAds.get('frame-src')).toEqual(
      expect.arrayContaining(['https://td.doubleclick.net', 'https://www.googletagmanager.com']),
    );
    const without = await pagePolicy({ META_PIXEL_ID: '1234567890' });
    expect(without.get('frame-src')?.join(' ')).not.toMatch(/doubleclick|googletagmanager/);
  });

  it('still runs no script by host: what the pixels load is admitted through our nonce', async () => {
    const policy = await pagePolicy({
      META_PIXEL_ID: '1',
      TIKTOK_PIXEL_ID: 'C1',
      GOOGLE_ADS_ID: 'AW-1',
    });
    expect(policy.get('script-src')?.slice(1)).toEqual(["'strict-dynamic'"]);
    expect(policy.get('script-src')?.[0]).toMatch(/^'nonce-/);
    // Google's remarketing and tag frames, by name: no bare https: to lean on.
    expect(policy.get('frame-src')).toEqual(
      expect.arrayContaining(['https://td.doubleclick.net', 'https://www.googletagmanager.com']),
    );
    for (const [name, sources] of policy) expect(sources, name).not.toContain('*');
  });
});

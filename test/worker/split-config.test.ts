import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedPair, unsigned } from '../fixtures/signed-cookies';
import { freshApp, putConfig, setCookies } from './fetch-app';

afterEach(async () => {
  await reset();
  vi.restoreAllMocks();
});

const TWO_WAY = {
  version: 'ab-1',
  defaultVariant: 'default',
  variants: { default: { weight: 50 }, lp17: { weight: 50, flow: 'lp17ch17pr5' } },
};

/** A returning visitor, whose pin a test signs for them as the worker would have. */
const VISITOR = '6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b';

function heading(html: string): string | undefined {
  return html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1];
}

function logLines(spy: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return spy.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

describe('split test and config from KV', () => {
  it('a malformed KV value serves the defaults and logs an error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await putConfig(
      'split',
      '{"version": 1, "defaultVariant": "x", "variants": {"x": {"weight": -5}}}',
    );
    await putConfig('flows', 'not json at all');
    const res = await freshApp()('/');
    expect(res.status).toBe(200);
    expect(heading(await res.text())).toBe('Find out where your loved ones are');
    expect(logLines(errors)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ error: 'config_invalid', key: 'split', using: 'defaults' }),
        expect.objectContaining({ error: 'config_invalid', key: 'flows', using: 'defaults' }),
      ]),
    );
  });

  it('an invalid value after a valid one keeps serving the last known good config', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchApp = freshApp({ random: () => 0.99 });
    await putConfig('split', TWO_WAY);
    expect(heading(await (await fetchApp('/')).text())).toBe('Locate any phone, with consent');
    await putConfig('split', '{"broken":');
    expect(heading(await (await fetchApp('/')).text())).toBe('Locate any phone, with consent');
    expect(logLines(errors)).toContainEqual(
      expect.objectContaining({ error: 'config_invalid', using: 'last_known_good' }),
    );
  });

  it('draws the variant from the weights with the injected random source', async () => {
    await putConfig('split', TWO_WAY);
    const low = await freshApp({ random: () => 0.2 })('/');
    expect(unsigned(setCookies(low).get('gf_variant'))).toBe('default');
    expect(heading(await low.text())).toBe('Find out where your loved ones are');
    const high = await freshApp({ random: () => 0.7 })('/');
    expect(unsigned(setCookies(high).get('gf_variant'))).toBe('lp17');
    expect(heading(await high.text())).toBe('Locate any phone, with consent');
  });

  it('never draws a variant whose weight is 0', async () => {
    await putConfig('split', {
      version: 2,
      defaultVariant: 'default',
      variants: { default: { weight: 0 }, lp17: { weight: 3, flow: 'lp17ch17pr5' } },
    });
    for (const random of [0, 0.01, 0.5, 0.999]) {
      const res = await freshApp({ random: () => random })('/');
      expect(unsigned(setCookies(res).get('gf_variant'))).toBe('lp17');
    }
  });

  it('sets the visitor and variant cookies once and reuses them', async () => {
    await putConfig('split', TWO_WAY);
    const fetchApp = freshApp({ random: () => 0.7 });
    const first = await fetchApp('/');
    const cookies = setCookies(first);
    const uuid = cookies.get('userUuid');
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.headers.getSetCookie()).toContain(
      `userUuid=${uuid}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`,
    );
    const again = await fetchApp('/signup', {
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.text()).toContain('"variant":"lp17"');
  });

  it('a weight change keeps existing visitors in their variant', async () => {
    await putConfig('split', TWO_WAY);
    const fetchApp = freshApp({ random: () => 0.7 });
    const first = await fetchApp('/');
    const jar = [...setCookies(first)].map(([name, value]) => `${name}=${value}`).join('; ');
    expect(unsigned(setCookies(first).get('gf_variant'))).toBe('lp17');
    await putConfig('split', {
      ...TWO_WAY,
      variants: { default: { weight: 100 }, lp17: { weight: 0, flow: 'lp17ch17pr5' } },
    });
    const later = await fetchApp('/', { headers: { cookie: jar } });
    expect(heading(await later.text())).toBe('Locate any phone, with consent');
    const newcomer = await fetchApp('/');
    expect(unsigned(setCookies(newcomer).get('gf_variant'))).toBe('default');
  });

  it('a visitor whose variant was removed is drawn again', async () => {
    await putConfig('split', TWO_WAY);
    const pinned = await signedPair('gf_variant', VISITOR, 'gone/old');
    const res = await freshApp({ random: () => 0.1 })('/', {
      headers: { cookie: `userUuid=${VISITOR}; ${pinned}` },
    });
    expect(unsigned(setCookies(res).get('gf_variant'))).toBe('default');
  });

  it('skip_split=true uses the default variant without storing a variant', async () => {
    await putConfig('split', { ...TWO_WAY, defaultVariant: 'lp17' });
    const pinned = await signedPair('gf_variant', VISITOR, 'default');
    const res = await freshApp({ random: () => 0.1 })('/?skip_split=true', {
      headers: { cookie: `userUuid=${VISITOR}; ${pinned}` },
    });
    expect(setCookies(res).has('gf_variant')).toBe(false);
    expect(heading(await res.text())).toBe('Locate any phone, with consent');
  });

  it('a variant naming an unknown flow gets the default flow', async () => {
    await putConfig('split', {
      version: 3,
      defaultVariant: 'ghost',
      variants: { ghost: { weight: 1, flow: 'no_such_flow' } },
    });
    const html = await (await freshApp()('/')).text();
    expect(html).toContain('"flow":"default"');
    expect(heading(html)).toBe('Find out where your loved ones are');
  });

  it('marketers can reorder a flow in KV without a deploy', async () => {
    await putConfig('flows', {
      version: 'f-2',
      flows: {
        default: ['one_pager_ai', 'searching_ai', 'features', 'paycheck1_pr5_h_ai', 'success'],
      },
    });
    const fetchApp = freshApp();
    const html = await (await fetchApp('/')).text();
    expect(heading(html)).toBe('AI-powered phone location');
    expect(html).toContain('"configVersion":"builtin+f-2"');
    const post = await fetchApp('/features', { method: 'POST', redirect: 'manual' });
    expect(post.headers.get('location')).toBe('/paycheck1_pr5_h_ai');
  });
});

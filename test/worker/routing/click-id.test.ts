import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Condition } from '../../../shared/config/routing';
import { decodeFirstTouch, encodeFirstTouch } from '../../../worker/routing/first-touch';
import { signedPair, unsigned } from '../../fixtures/signed-cookies';
import { aBrowser } from '../experiments/experiment-fixtures';
import { forgetConfig, PROBE, probeRouting, routeOf, routingApp } from './routing-app';

/**
 * The `click_id` attribute through the real app: the network of the click id the visit's first
 * link carried, or none. It is what ties an offer to paid clicks: a link tagged
 * `?utm_source=tiktok` by hand (or by a visitor) has the TikTok source but no TikTok click id.
 * It is kept in the signed first-touch cookie, so a visitor back days later without the click
 * id in their link keeps it, and a visitor cannot add one to their cookie.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

const clickId = (values: string[], operator: Condition['operator'] = 'in'): Condition => ({
  attribute: 'click_id',
  operator,
  values,
});

/** TikTok ads that came with TikTok's click id: the audience docs/routes.md recommends. */
const TIKTOK_CLICKS: Condition[] = [
  { attribute: 'source', operator: 'in', values: ['tiktok'] },
  clickId(['tiktok']),
];

async function firstRoute(groups: Condition[][], path: string): Promise<string | undefined> {
  return routeOf(await routingApp(probeRouting(groups)), path);
}

describe('a route that requires a TikTok click id', () => {
  it('does not take a visitor with ?utm_source=tiktok alone, and takes one with &ttclid=x', async () => {
    expect(await firstRoute([TIKTOK_CLICKS], '/?utm_source=tiktok')).toBe('default');
    expect(await firstRoute([TIKTOK_CLICKS], '/?utm_source=tiktok&ttclid=x')).toBe(PROBE);
    // A route on the source alone takes both: that is what anyone can type.
    const source: Condition[] = [TIKTOK_CLICKS[0]!];
    expect(await firstRoute([source], '/?utm_source=tiktok')).toBe(PROBE);
  });

  it('does not take a click id of another network, or one no network would send', async () => {
    expect(await firstRoute([TIKTOK_CLICKS], '/?utm_source=tiktok&fbclid=IwAR0abc')).toBe(
      'default',
    );
    expect(await firstRoute([TIKTOK_CLICKS], '/?utm_source=tiktok&ttclid=%3Cscript%3E')).toBe(
      'default',
    );
    expect(await firstRoute([TIKTOK_CLICKS], '/?ttclid=a&ttclid=b')).toBe('default');
  });
});

describe('click_id values', () => {
  it.each([
    ['fbclid is meta', ['meta'], '/?fbclid=IwAR0abc', true],
    ['ttclid is tiktok', ['tiktok'], '/?ttclid=E.C.P.x', true],
    ['gclid is google', ['google'], '/?gclid=Cj0KCQ', true],
    ['gbraid is google', ['google'], '/?gbraid=0AAAAA', true],
    ['wbraid is google', ['google'], '/?wbraid=CjkKCQ', true],
    ['utm_source=fb is no meta click id', ['meta'], '/?utm_source=fb', false],
    ['no click id is none', ['none'], '/?utm_source=tiktok', true],
    ['a click id is not none', ['none'], '/?ttclid=E.C.P.x', false],
    ['fbclid outranks ttclid, as for the source', ['tiktok'], '/?ttclid=a&fbclid=b', false],
  ])('%s', async (_name, values, path, taken) => {
    expect(await firstRoute([[clickId(values)]], path)).toBe(taken ? PROBE : 'default');
  });

  it('"none of: none" takes any ad click, and no visit without one', async () => {
    const anyClick = [[clickId(['none'], 'not_in')]];
    expect(await firstRoute(anyClick, '/?gbraid=0AAAAA')).toBe(PROBE);
    expect(await firstRoute(anyClick, '/?fbclid=IwAR0abc')).toBe(PROBE);
    expect(await firstRoute(anyClick, '/?utm_source=google&utm_medium=cpc')).toBe('default');
  });
});

describe('the click id in the signed first-touch cookie', () => {
  it('survives across visits: back the next week without the click id, still a TikTok click', async () => {
    const fetchApp = await routingApp(probeRouting([TIKTOK_CLICKS]));
    const browser = aBrowser(fetchApp);
    await browser.get('/?utm_source=tiktok&ttclid=E.C.P.abc');
    expect(browser.route()).toBe(PROBE);
    const touch = decodeFirstTouch(unsigned(browser.cookies.get('gf_touch')));
    expect(touch).toMatchObject({ source: 'tiktok', click_id: 'tiktok' });
    // Only the network is kept, never the id.
    expect(JSON.stringify(touch)).not.toContain('E.C.P.abc');

    // A new visit: the route kept for the last one is gone, the first touch is not.
    browser.cookies.delete('gf_route');
    await browser.get('/');
    expect(browser.route()).toBe(PROBE);
  });

  it('a visitor tagged by hand gets no click id later: the first touch is kept, not the new link', async () => {
    const fetchApp = await routingApp(probeRouting([TIKTOK_CLICKS]));
    const browser = aBrowser(fetchApp);
    await browser.get('/?utm_source=tiktok');
    expect(browser.route()).toBe('default');
    browser.cookies.delete('gf_route');
    await browser.get('/?utm_source=tiktok&ttclid=typed-later');
    expect(browser.route()).toBe('default');
  });

  it('a click id written into a cookie by hand is not read', async () => {
    const fetchApp = await routingApp(probeRouting([TIKTOK_CLICKS]));
    const visitor = '0b3c1f2e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
    const forged = encodeFirstTouch({
      source: 'tiktok',
      click_id: 'tiktok',
      utm: { source: 'tiktok', medium: null, campaign: null, content: null, term: null },
      entry: null,
      country: null,
      began_at: Date.UTC(2026, 10, 25),
    });
    // Signed for another visitor, then unsigned: neither is this visitor's.
    const copied = await signedPair('gf_touch', 'ffffffff-4d5a-4b6c-8d7e-9f0a1b2c3d4e', forged);
    for (const cookie of [`gf_touch=${forged}`, copied]) {
      const route = await routeOf(fetchApp, '/', {
        headers: { cookie: `userUuid=${visitor}; ${cookie}` },
      });
      expect(route).toBe('default');
    }
    // Signed for them, it would be read: the refusal above is the signature's.
    const own = await signedPair('gf_touch', visitor, forged);
    expect(
      await routeOf(fetchApp, '/', { headers: { cookie: `userUuid=${visitor}; ${own}` } }),
    ).toBe(PROBE);
  });
});

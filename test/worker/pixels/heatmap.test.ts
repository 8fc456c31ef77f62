import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { SPRING_LANDING } from '../../fixtures/composed-landing';
import { SPRING_PAYWALL } from '../../fixtures/composed-paywall';
import { aBrowser, emptyExperiments, putExperiments } from '../experiments/experiment-fixtures';
import { freshApp, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * The heatmap at the edge (worker/attribution/tracking-data.ts, security-headers.ts): which pages
 * get Microsoft Clarity's project id and tags, and whose CSP admits Clarity's hosts.
 */

const CLARITY = { CLARITY_PROJECT_ID: 'abcde12345' };
const US = { 'cf-ipcountry': 'US' };
const DE = { 'cf-ipcountry': 'DE' };
const CLARITY_HOSTS = ['https://*.clarity.ms', 'https://c.bing.com'];

function policyOf(response: Response): Map<string, string[]> {
  const csp = response.headers.get('content-security-policy') ?? '';
  return new Map(
    csp.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

const clarityIn = (policy: Map<string, string[]>) =>
  [...policy.values()].flat().filter((source) => /clarity|bing/.test(source));

async function page(
  bindings: Partial<Cloudflare.Env>,
  path: string,
  headers: Record<string, string>,
) {
  const response = await freshApp({}, bindings)(path, { headers });
  const html = await response.text();
  return { response, html, state: pageStateOf(html), policy: policyOf(response) };
}

/** The consent banner's sentence, as its island's props carry it. */
function bannerText(html: string): string | undefined {
  const props = /data-island="ConsentBanner" data-props="([^"]*)"/.exec(html)?.[1];
  if (props === undefined) return undefined;
  const json = props.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&#x27;', "'");
  return (JSON.parse(json) as { text: string }).text;
}

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});

describe('without a project id', () => {
  it('the page holds no heatmap and its CSP names no Clarity host', async () => {
    const { state, policy, html } = await page({}, '/', US);
    expect(state.analytics.heatmap).toBeUndefined();
    expect(state.analytics.pixels.clarity).toBeNull();
    expect(clarityIn(policy)).toEqual([]);
    expect(html.includes('clarity.ms')).toBe(false);
  });

  it('an id that is not letters and digits is no id: nothing of it reaches the page', async () => {
    for (const id of [' ', 'abc/../x', '"><script>', 'a'.repeat(33), 'abc def']) {
      const { state, policy, html } = await page({ CLARITY_PROJECT_ID: id }, '/', US);
      expect(state.analytics.heatmap, id).toBeUndefined();
      expect(clarityIn(policy), id).toEqual([]);
      expect(html.includes('clarity.ms'), id).toBe(false);
    }
  });
});

describe('with a project id', () => {
  it('a landing gets the id and its tags, and its CSP admits Clarity for fetches and images', async () => {
    const { state, policy } = await page(CLARITY, '/', US);
    expect(state.analytics.heatmap).toEqual({
      clarity: 'abcde12345',
      tags: expect.arrayContaining([
        ['screen_name', state.screen],
        ['variant', state.variant],
        ['flow', state.flow],
        ['route', state.route],
        ['traffic_source', 'direct'],
      ]),
    });
    expect(policy.get('connect-src')).toEqual(expect.arrayContaining(CLARITY_HOSTS));
    expect(policy.get('img-src')).toEqual(expect.arrayContaining(CLARITY_HOSTS));
    // Its scripts come in through our nonce, as the pixels' do: no host in script-src.
    expect(policy.get('script-src')?.slice(1)).toEqual(["'strict-dynamic'"]);
    expect(clarityIn(policy).sort()).toEqual([...CLARITY_HOSTS, ...CLARITY_HOSTS].sort());
  });

  it.each(['/checkout_v3_tr', '/checkout_h3_pp', '/paycheck_combo_3d', '/checkout-test'])(
    '%s, a screen with card fields: no heatmap, and its CSP refuses Clarity',
    async (path) => {
      const { response, state, policy, html } = await page(CLARITY, path, US);
      expect(response.status).toBe(200);
      expect(state.analytics.heatmap).toBeUndefined();
      expect(clarityIn(policy)).toEqual([]);
      expect(state.analytics.pixels.clarity).toBeNull();
      expect(html.includes('abcde12345')).toBe(false);
    },
  );

  it('the test gateway’s card frame: its CSP refuses Clarity', async () => {
    const response = await freshApp({}, CLARITY)('/test-gateway/card-frame', { headers: US });
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(clarityIn(policyOf(response))).toEqual([]);
  });

  it('the screens after a purchase get it: an upsell price test is read like any other', async () => {
    const { state } = await page(CLARITY, '/upsell_an_private', US);
    expect(state.analytics.heatmap?.clarity).toBe('abcde12345');
  });

  it('where consent is asked, Clarity alone makes the banner ask, naming it, and the page waits', async () => {
    const { state, html } = await page(CLARITY, '/signup', DE);
    expect(state.analytics.consent).toBe('pending');
    expect(bannerText(html)).toBe(
      'Microsoft Clarity records how this page is used, never what you type, so we can improve it.',
    );
    expect(state.analytics.heatmap?.clarity).toBe('abcde12345');
  });

  it('with an ad pixel too, the banner asks for both; without Clarity, for the ads alone', async () => {
    const both = await page({ ...CLARITY, META_PIXEL_ID: '1' }, '/signup?custom_lng=en', DE);
    expect(bannerText(both.html)).toBe(
      'With your permission, our advertising partners use cookies to measure how well our ads work. Microsoft Clarity records how this page is used, never what you type, so we can improve it.',
    );
    const ads = await page({ META_PIXEL_ID: '1' }, '/signup?custom_lng=en', DE);
    expect(bannerText(ads.html)).toBe(
      'With your permission, our advertising partners use cookies to measure how well our ads work.',
    );
  });

  it('on a checkout the banner still names Clarity: the answer holds for the screens after it', async () => {
    const { state, html } = await page(CLARITY, '/checkout_v3_tr?custom_lng=en', DE);
    expect(state.analytics.heatmap).toBeUndefined();
    expect(bannerText(html)).toContain('Microsoft Clarity records');
  });

  it('after a Decline the page holds neither the id nor the tags', async () => {
    const { state, html } = await page(CLARITY, '/signup', { ...DE, cookie: 'gf_consent=denied' });
    expect(state.analytics.consent).toBe('denied');
    expect(state.analytics.heatmap).toBeUndefined();
    expect(bannerText(html)).toBeUndefined();
  });
});

describe('on a composed screen, as on the screen it starts from', () => {
  beforeEach(async () => {
    await putConfig('content', {
      screens: {},
      composed: { ...SPRING_LANDING.composed, ...SPRING_PAYWALL.composed },
    });
  });
  afterEach(() => env.FUNNEL_CONFIG.delete('content'));

  it('a composed landing gets the heatmap, and its CSP admits Clarity', async () => {
    const { response, state, policy } = await page(CLARITY, '/spring_landing', US);
    expect(response.status).toBe(200);
    expect(state.analytics.heatmap?.clarity).toBe('abcde12345');
    expect(clarityIn(policy).sort()).toEqual([...CLARITY_HOSTS, ...CLARITY_HOSTS].sort());
  });

  it('a paywall composed from a checkout, with card fields: no heatmap, its CSP refuses Clarity', async () => {
    const { response, state, policy, html } = await page(CLARITY, '/spring_paywall', US);
    expect(response.status).toBe(200);
    expect(state.analytics.heatmap).toBeUndefined();
    expect(state.analytics.pixels.clarity).toBeNull();
    expect(clarityIn(policy)).toEqual([]);
    expect(html.includes('abcde12345')).toBe(false);
  });

  it('a name no content composes is no screen: its 404 refuses Clarity', async () => {
    const response = await freshApp({}, CLARITY)('/autumn_landing', { headers: US });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(clarityIn(policyOf(response))).toEqual([]);
  });
});

describe('the tags name the visitor’s experiments, never the visitor', () => {
  const LANDING_TEST = aiLandingTest(1);

  beforeEach(async () => {
    await putConfig('split', {
      version: 1,
      defaultVariant: 'default',
      variants: { default: { weight: 1 } },
    });
    await putExperiments({ 'lp-ai': LANDING_TEST });
    await emptyExperiments();
  });

  it('each page of the visit carries the experiment’s variant as exp_<id>', async () => {
    const browser = aBrowser(freshApp({ random: () => 0.7 }, CLARITY));
    const headers = US;
    for (const path of ['/', '/signup']) {
      const { body } = await browser.get(path, headers);
      const { heatmap } = pageStateOf(body).analytics;
      expect(heatmap?.tags, path).toContainEqual(['exp_lp-ai', 'ai']);
      // Ids a marketer chose, and the screen: no uuid, no cookie value.
      const text = JSON.stringify(heatmap);
      expect(text).not.toContain(browser.visitorId());
    }
  });
});

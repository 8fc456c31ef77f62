import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/experiments';
import { aBrowser, emptyExperiments, putExperiments } from '../experiments/experiment-fixtures';
import { freshApp, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * The heatmap at the edge (worker/attribution/heatmap-page.ts, security-headers.ts): which pages
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

  it('where consent is asked, Clarity alone makes the banner ask, and the page waits for it', async () => {
    const { state, html } = await page(CLARITY, '/signup', DE);
    expect(state.analytics.consent).toBe('pending');
    expect(html.includes('data-island="ConsentBanner"')).toBe(true);
    expect(state.analytics.heatmap?.clarity).toBe('abcde12345');
  });

  it('after a Decline the page holds neither the id nor the tags', async () => {
    const { state, html } = await page(CLARITY, '/signup', { ...DE, cookie: 'gf_consent=denied' });
    expect(state.analytics.consent).toBe('denied');
    expect(state.analytics.heatmap).toBeUndefined();
    expect(html.includes('data-island="ConsentBanner"')).toBe(false);
  });
});

describe('the tags name the visitor’s experiments, never the visitor', () => {
  const LANDING_TEST: ExperimentDocument = {
    name: 'AI landing',
    status: 'running',
    layer: 'landing',
    audience: {},
    coverage: 1,
    seed: 'lp-ai',
    phase: 1,
    control: 'control',
    variants: {
      control: { weight: 1, change: {} },
      ai: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
    },
  };

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

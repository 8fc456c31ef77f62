import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoutingDocument } from '../../../shared/config/routing';
import { planOf } from '../../../shared/plans/catalogue';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { TIKTOK_DACH_ROUTING } from '../../fixtures/tiktok-dach-routing';
import {
  aBrowser,
  emptyExperiments,
  exposureRows,
  TWO_WAY,
} from '../experiments/experiment-fixtures';
import { ORIGIN, putConfig } from '../fetch-app';
import { mainText, pageStateOf } from '../page-html';
import { forgetConfig, heading, routingApp } from './routing-app';

/**
 * The split test draws only the visitors of the routes it names (split.routes, by default the
 * default route): a TikTok visitor on their own route walks its flow, gets no variant cookie and
 * is never counted in the experiment; everyone else is drawn as before.
 */

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  await emptyExperiments();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

const ROUTING: RoutingDocument = {
  version: 'test',
  audiences: {
    tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
  },
  routes: [
    { id: 'tiktok', audience: 'tiktok', flow: 'lp17ch17pr5' },
    { id: 'default', flow: 'default' },
  ],
};

/** The draw below 0.5 is the split's default variant, whose flow is 'default'. */
const DRAWS_DEFAULT = 0.2;
const DRAWS_LP17 = 0.7;

describe('the split test and the routes', () => {
  it("a TikTok visitor gets no variant, is not exposed, and walks the route's flow", async () => {
    await putConfig('split', TWO_WAY);
    const fetchApp = await routingApp(ROUTING, { random: () => DRAWS_DEFAULT });
    const browser = aBrowser(fetchApp);
    const landing = await browser.get('/?ttclid=E.C.P.x');
    expect(landing.status).toBe(200);
    expect(browser.route()).toBe('tiktok');
    expect(browser.variant()).toBeUndefined();
    expect(heading(landing.body)).toBe('Locate any phone, with consent');
    expect(landing.body).toContain('"flow":"lp17ch17pr5"');
    // The next screens are the route's, though the link's click id is gone.
    const searching = await browser.get('/searching_2');
    expect(searching.status).toBe(200);
    expect(searching.body).toContain('"flow":"lp17ch17pr5"');
    const next = await fetchApp('/searching_2', {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        cookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    expect(next.status).toBe(303);
    expect(next.headers.get('location')).toBe('/signup_testim');
    expect(browser.variant()).toBeUndefined();
    expect(await exposureRows()).toEqual([]);
  });

  it('a default-route visitor is drawn and exposed as before', async () => {
    await putConfig('split', TWO_WAY);
    const browser = aBrowser(await routingApp(ROUTING, { random: () => DRAWS_LP17 }));
    const landing = await browser.get('/?utm_source=newsletter');
    expect(landing.status).toBe(200);
    expect(browser.route()).toBe('default');
    expect(browser.variant()).toBe('lp17');
    expect(heading(landing.body)).toBe('Locate any phone, with consent');
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: browser.visitorId(), variant: 'lp17' }),
    ]);
    const other = aBrowser(await routingApp(ROUTING, { random: () => DRAWS_DEFAULT }));
    expect(heading((await other.get('/')).body)).toBe('Find out where your loved ones are');
    expect(other.variant()).toBe('default');
  });

  it("a route the split names is drawn, the draw's flow over the route's", async () => {
    await putConfig('split', { ...TWO_WAY, routes: ['tiktok', 'default'] });
    const browser = aBrowser(await routingApp(ROUTING, { random: () => DRAWS_DEFAULT }));
    const landing = await browser.get('/?ttclid=E.C.P.x');
    expect(browser.route()).toBe('tiktok');
    expect(browser.variant()).toBe('default');
    expect(heading(landing.body)).toBe('Find out where your loved ones are');
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: browser.visitorId(), variant: 'default' }),
    ]);
  });
});

describe("the routes guide's TikTok route in DE, AT and CH (docs/routes.md)", () => {
  const AD_LINK = '/?ttclid=E.C.P.abc&utm_source=tiktok&utm_campaign=bf_de';
  const euros = (family: 'monthly' | 'quarterly') =>
    `€${(planOf(family, 'EUR').price / 100).toFixed(2)}`;

  beforeEach(async () => {
    await putConfig('split', DEFAULT_SPLIT);
    await putConfig('flows', {
      version: 'routes',
      flows: { ...DEFAULT_FLOWS.flows, tiktok_dach: ['one_pager', 'checkout_v3_pp', 'success'] },
    });
  });

  it("an ad opened in Germany goes from the landing to the route's checkout, with its two plans", async () => {
    const browser = aBrowser(await routingApp(TIKTOK_DACH_ROUTING));
    const inGermany = { cf: { country: 'DE' } } as RequestInit;
    const landing = await browser.request(AD_LINK, inGermany);
    const next = pageStateOf(landing.body).next ?? '';
    expect(new URL(next, ORIGIN).pathname).toBe('/checkout_v3_pp');
    expect(browser.route()).toBe('tiktok_dach');
    const checkout = await browser.request(next, inGermany);
    expect(checkout.status).toBe(200);
    const text = mainText(checkout.body);
    // The route's plans (monthly and quarterly), not the screen's own intro offers.
    expect(text).toContain(euros('monthly'));
    expect(text).toContain(euros('quarterly'));
    expect(text).not.toContain('6.99');
  });

  it('an ad opened in the US gets the default route, and a split of one variant pins no one', async () => {
    const browser = aBrowser(await routingApp(TIKTOK_DACH_ROUTING));
    const landing = await browser.request('/?ttclid=E.C.P.xyz&utm_source=tiktok', {
      cf: { country: 'US' },
    } as RequestInit);
    expect(new URL(pageStateOf(landing.body).next ?? '', ORIGIN).pathname).toBe('/searching');
    expect(browser.route()).toBe('default');
    // The split's one variant tests nothing: it applies its flow, pinning and counting no one.
    expect(browser.variant()).toBeUndefined();
    expect(browser.cookies.has('gf_variant')).toBe(false);
    expect(await exposureRows()).toEqual([]);
  });
});

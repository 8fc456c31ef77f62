import { describe, expect, it } from 'vitest';
import { SCREEN_IDS } from '../../../shared/screens';
import type { RenderedBody } from '../../../worker/render/render-page';
import { RenderedScreens } from '../../../worker/render/rendered-screens';
import { signedPair } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN } from '../fetch-app';

/**
 * Screen bodies kept between requests (worker/render/rendered-screens.ts): a page served from a
 * kept body is the page a fresh render gives the same request, byte for byte but the nonce; and
 * what one visitor typed or carries never reaches another's page.
 */

interface Visit {
  uuid: string;
  headers?: Record<string, string>;
  /** Who it is, in a failure's message. */
  name?: string;
}

const ANNA: Visit = { uuid: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Anna' };
const BEN: Visit = { uuid: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'Ben' };
/** Another language and currency than the first two. */
const GRETA: Visit = {
  uuid: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  headers: { 'accept-language': 'de-DE,de', 'cf-ipcountry': 'DE' },
  name: 'Greta',
};

/**
 * Query strings as visitors bring them: none, an ad click's, one whose `&`, quote and `<` must be
 * escaped in the page, a backslash (JSON would escape it: rendered fresh), and text beyond ASCII.
 */
const QUERIES = [
  '',
  '?fbclid=IwAR0xYz-1&utm_source=facebook&utm_campaign=spring%20sale',
  '?utm_content=it\'s&x=<b>&y="q"',
  '?ref=a\\b',
  '?q=Zürich&emoji=🙂',
];

type FetchApp = ReturnType<typeof freshApp>;

/** The consent banner's island marker, if the page rendered one. */
const hasBanner = (html: string) => html.includes('data-island="ConsentBanner"');

async function page(fetchApp: FetchApp, who: Visit, path: string): Promise<string> {
  const response = await fetchApp(path, {
    headers: {
      ...who.headers,
      cookie: [
        `userUuid=${who.uuid}; ${await signedPair('gf_variant', who.uuid, 'default')}`,
        who.headers?.cookie,
      ]
        .filter(Boolean)
        .join('; '),
    },
  });
  expect(response.status, path).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  expect(nonce, path).toBeTruthy();
  // Each answer has its own nonce (two-visitors.test.ts): the one value two renders differ by.
  return (await response.text()).replaceAll(nonce ?? '', 'NONCE');
}

/** Counts the renders it is asked to keep: the rest were served from kept bodies. */
class CountedRenders extends RenderedScreens {
  renders = 0;
  override body(key: string, render: () => Promise<RenderedBody>): Promise<RenderedBody> {
    return super.body(key, () => {
      this.renders += 1;
      return render();
    });
  }
}

/**
 * Who asks for a query on each screen: Anna for every query; Ben, another visitor in English, for
 * the ad click's (served from Anna's kept body, with his uuid); Greta in German for the ad
 * click's (her body kept) and the backslash's (rendered fresh). That no visitor's page holds
 * another's uuid, nonce, click ids or cookies, on every screen with kept bodies, is
 * two-visitors.test.ts's.
 */
function asking(query: string): Visit[] {
  return [
    ANNA,
    ...(query === QUERIES[1] ? [BEN] : []),
    ...(query === QUERIES[1] || query === QUERIES[3] ? [GRETA] : []),
  ];
}

describe('screen bodies kept between requests', () => {
  it('serves every screen as a fresh render would, to each visitor, language and query', async () => {
    const kept = new CountedRenders(1000);
    const cached = freshApp({ renderedScreens: kept });
    const fresh = freshApp({ renderedScreens: null });
    for (const screen of SCREEN_IDS) {
      const rendersBefore = kept.renders;
      for (const query of QUERIES) {
        const path = `/${screen}${query}`;
        for (const who of asking(query)) {
          const served = await page(cached, who, path);
          expect(served, `${path} for ${who.name}`).toBe(await page(fresh, who, path));
          if (who === GRETA) expect(served, path).toContain('<html lang="de"');
        }
      }
      // Anna's first visit renders the body that every visitor in English gets, whatever their
      // query; Greta's the German one. The query JSON would escape is rendered apart.
      expect(kept.renders - rendersBefore, `/${screen}`).toBe(2);
    }
    expect(kept.size).toBe(SCREEN_IDS.length * 2);
  });

  it("asks for consent only those who have not answered, whoever's body is kept", async () => {
    const kept = new RenderedScreens(1000);
    const fetchApp = freshApp(
      { renderedScreens: kept },
      { META_PIXEL_ID: '1234567890', TIKTOK_PIXEL_ID: 'CTIKTOK123' },
    );
    const german = { 'cf-ipcountry': 'DE', 'accept-language': 'de-DE' };
    const pending: Visit = { uuid: ANNA.uuid, headers: german };
    const answered: Visit = {
      uuid: BEN.uuid,
      headers: { ...german, cookie: 'gf_consent=granted' },
    };
    for (const [first, second] of [
      [pending, answered],
      [answered, pending],
    ] as const) {
      for (const screen of ['one_pager', 'signup']) {
        const firstPage = await page(fetchApp, first, `/${screen}`);
        const secondPage = await page(fetchApp, second, `/${screen}`);
        expect(hasBanner(firstPage), screen).toBe(first === pending);
        expect(hasBanner(secondPage), screen).toBe(second === pending);
      }
    }
  });

  it("never shows a refused number to the next visitor: a refused post's page is not kept", async () => {
    const kept = new RenderedScreens(1000);
    const fetchApp = freshApp({ renderedScreens: kept });
    const refused = await fetchApp('/one_pager?gclid=x', {
      method: 'POST',
      headers: {
        origin: ORIGIN,
        'sec-fetch-site': 'same-origin',
        cookie: `userUuid=${ANNA.uuid}; ${await signedPair('gf_variant', ANNA.uuid, 'default')}`,
      },
      body: new URLSearchParams({ phone: '0123 45', country: 'GB' }),
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('value="0123 45"');
    expect(kept.size).toBe(0);
    const next = await page(fetchApp, BEN, '/one_pager?gclid=x');
    expect(next).not.toContain('0123 45');
    expect(next).not.toContain('aria-invalid="true"');
  });
});

describe('RenderedScreens', () => {
  const body = (html: string) => async () => ({ html, islands: new Set<never>() });

  it('keeps the most recently used bodies up to its capacity', async () => {
    const kept = new RenderedScreens(2);
    await kept.body('a', body('A'));
    await kept.body('b', body('B'));
    // Using a moves it past b: c then pushes b out, not a.
    expect((await kept.body('a', body('A again'))).html).toBe('A');
    await kept.body('c', body('C'));
    expect(kept.size).toBe(2);
    expect((await kept.body('a', body('A again'))).html).toBe('A');
    expect((await kept.body('b', body('B again'))).html).toBe('B again');
  });

  it('keeps no body that failed to render', async () => {
    const kept = new RenderedScreens(2);
    await expect(kept.body('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(kept.size).toBe(0);
    expect((await kept.body('a', body('A'))).html).toBe('A');
  });
});

import { describe, expect, it } from 'vitest';
import { SCREEN_IDS } from '../../../shared/screens';
import { signedPair } from '../../fixtures/signed-cookies';
import { freshApp, putConfig, setCookies } from '../fetch-app';
import { pageStateJson } from '../page-html';

/**
 * Two visitors asking for every screen at the same moment, from the same isolate (one app: one
 * config cache, one module state): each page holds its own visitor's uuid, nonce, variant and
 * ad data, and nothing of the other's. Whatever the worker ever keeps between requests (a cache
 * of rendered parts, a module-level value), this is what must keep holding.
 */

interface Visitor {
  uuid: string;
  variant: string;
  /** Values only this visitor sends: click ids and a campaign. */
  markers: string[];
  query: string;
}

const visitor = (letter: string, variant: string): Visitor => {
  const uuid = `${letter.repeat(8)}-${letter.repeat(4)}-4${letter.repeat(3)}-8${letter.repeat(3)}-${letter.repeat(12)}`;
  const markers = [`FBCLID${letter}`, `GCLID${letter}`, `CAMPAIGN${letter}`];
  return {
    uuid,
    variant,
    markers,
    query: `?fbclid=${markers[0]}&gclid=${markers[1]}&utm_campaign=${markers[2]}`,
  };
};

const ALICE = visitor('a', 'default');
const BORIS = visitor('b', 'second');

interface Page {
  visitor: Visitor;
  nonce: string;
  body: string;
  cookies: string;
  state: { variant: string; analytics: { visitorId: string } };
}

async function open(fetchApp: ReturnType<typeof freshApp>, who: Visitor, screen: string) {
  const response = await fetchApp(`/${screen}${who.query}`, {
    headers: {
      cookie: `userUuid=${who.uuid}; ${await signedPair('gf_variant', who.uuid, who.variant)}`,
      'cf-ipcountry': 'US',
    },
  });
  expect(response.status, `/${screen}`).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy') ?? '')?.[1];
  const body = await response.text();
  const boot = pageStateJson(body);
  expect(nonce, `/${screen} nonce`).toBeTruthy();
  expect(boot, `/${screen} page state`).toBeTruthy();
  return {
    visitor: who,
    nonce: nonce ?? '',
    body,
    cookies: [...setCookies(response).values()].join(' '),
    state: JSON.parse(boot ?? '{}'),
  } satisfies Page;
}

/** What identifies a page's visitor in it: uuid, nonce, the ad cookies minted for them, click ids. */
const ownedBy = (page: Page) => [
  page.visitor.uuid,
  page.nonce,
  ...page.visitor.markers,
  ...[...page.cookies.matchAll(/fb\.1\.\d+\.\d+|[0-9a-f]{32}/g)].map((match) => match[0]),
];

function expectOwnOnly(page: Page, other: Page, screen: string) {
  expect(page.state.analytics.visitorId, screen).toBe(page.visitor.uuid);
  expect(page.state.variant, screen).toBe(page.visitor.variant);
  expect(page.body, screen).toContain(`nonce="${page.nonce}"`);
  for (const value of ownedBy(other)) {
    expect(page.body, `${screen}: the other visitor's ${value}`).not.toContain(value);
    expect(page.cookies, `${screen}: the other visitor's ${value}`).not.toContain(value);
  }
}

describe('two visitors at once, on every screen', () => {
  it("each page holds its visitor's uuid, nonce, variant and ad data, never the other's", async () => {
    await putConfig('split', {
      version: 'two-visitors',
      defaultVariant: 'default',
      variants: {
        default: { weight: 50, flow: 'default' },
        second: { weight: 50, flow: 'default' },
      },
    });
    const fetchApp = freshApp();
    const nonces = new Set<string>();
    for (const screen of SCREEN_IDS) {
      // At the same moment, then one after the other in both orders.
      const [alice, boris] = await Promise.all([
        open(fetchApp, ALICE, screen),
        open(fetchApp, BORIS, screen),
      ]);
      const borisAgain = await open(fetchApp, BORIS, screen);
      const aliceAgain = await open(fetchApp, ALICE, screen);
      for (const [page, other] of [
        [alice, boris],
        [boris, alice],
        [borisAgain, aliceAgain],
        [aliceAgain, borisAgain],
        [aliceAgain, boris],
      ] as const) {
        expectOwnOnly(page, other, `/${screen}`);
      }
      for (const page of [alice, boris, borisAgain, aliceAgain]) nonces.add(page.nonce);
    }
    // A nonce is never reused, across visitors or requests.
    expect(nonces.size).toBe(SCREEN_IDS.length * 4);
  });
});

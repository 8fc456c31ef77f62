import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import developmentEntry from '../../../worker/dev';
import productionEntry from '../../../worker/index';
import { PREVIEW_TTL_SECONDS, signPreview } from '../../../worker/preview/preview';
import { decodeFirstTouch } from '../../../worker/routing/first-touch';
import { previewHolder } from '../../fixtures/preview-holder';
import { unsigned } from '../../fixtures/signed-cookies';
import { migratePortalBeforeEach } from '../api/embedded-portal-fixture';
import { captureLogsPerTest } from '../api/log-capture';
import {
  AUD,
  accessClaims,
  CERTS_URL,
  makeSigner,
  type Signer,
  TEAM,
} from '../console/access-tokens';
import { ORIGIN, putConfig, setCookies } from '../fetch-app';
import { mainText } from '../page-html';
import { PROBE, probeRouting } from './routing-app';

/**
 * Being a visitor from another country, through the entries as they are deployed and as
 * `npm start` runs them (worker/request/visit-facts.ts): `wrangler dev` gives every request a
 * `cf.country` of its own ("US" here), so in development the `CF-IPCountry` header names the
 * country instead, and a marketer's preview may name it with `?country=`. In production
 * `cf.country` is the visitor's address's, and neither changes it.
 */

const logs = captureLogsPerTest();
migratePortalBeforeEach();

/** A TikTok ad in Germany takes PROBE; everyone else, `default`. */
const TIKTOK_DE = probeRouting([
  [
    { attribute: 'source', operator: 'in', values: ['tiktok'] },
    { attribute: 'country', operator: 'in', values: ['DE'] },
  ],
]);

const LINK = '/?utm_source=tiktok&ttclid=E.C.P.de1';
/** Where `wrangler dev` (offline) puts every request; the production edge puts its visitor's. */
const WRANGLER_DEV_CF = { country: 'US', timezone: 'America/Chicago' };
const PREVIEW_KEY = 'preview-key-of-this-test';

beforeEach(async () => {
  await putConfig('routing', TIKTOK_DE);
  await putConfig('split', DEFAULT_SPLIT);
  await putConfig('flows', DEFAULT_FLOWS);
});

type Entry = { fetch(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): unknown };

interface Visit {
  /** The route the request log line names. */
  route: unknown;
  country: unknown;
  response: Response;
  /** The page, read to the end. */
  html: string;
}

/** One page request to an entry's default export under `environment`, as the runtime makes it. */
async function visit(
  entry: Entry,
  environment: string | undefined,
  path: string,
  headers: Record<string, string> = {},
): Promise<Visit> {
  const ctx = createExecutionContext();
  const bindings = {
    ...env,
    ENVIRONMENT: environment,
    PORTAL_URL: undefined,
    CONSOLE_PREVIEW_KEY: PREVIEW_KEY,
    ACCESS_TEAM_DOMAIN: TEAM,
    ACCESS_AUD: AUD,
  };
  const request = new Request(new URL(path, ORIGIN), {
    headers,
    cf: WRANGLER_DEV_CF,
  } as RequestInit);
  const response = (await entry.fetch(request, bindings, ctx)) as Response;
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  const line = logs
    .requests()
    .findLast((entryLine) => entryLine.path === new URL(path, ORIGIN).pathname);
  expect(response.status).toBe(200);
  return { route: line?.route, country: line?.country, response, html };
}

/** The marketer's browser, its visitor id the one the preview cookie is signed for. */
const MARKETER = '9d3b6f20-4c8e-4a17-b2f5-6e0a8c1d7b93';

/** A preview token of the split's default variant, as the console's link signs it for `visitorId`. */
async function previewToken(visitorId: string): Promise<string> {
  const expiry = Math.floor(Date.now() / 1000) + PREVIEW_TTL_SECONDS;
  return signPreview(PREVIEW_KEY, 'default', expiry, previewHolder(visitorId));
}

/** The marketer's browser's cookies: its visitor id and its preview of the default variant. */
async function previewCookie(): Promise<string> {
  return `userUuid=${MARKETER}; gf_preview=${await previewToken(MARKETER)}`;
}

/**
 * The team's Access key, whose certs the entries' Access check fetches (served here in place of
 * Cloudflare), and the marketer Access signed in on a deployed worker's host.
 */
let team: Signer;
const SIGNED_IN = 'ada@example.com';
beforeAll(async () => {
  team = await makeSigner('visitor-country-key');
});
// Each test, as the log capture restores every mock after each.
beforeEach(() => {
  const network = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
    String(input) === CERTS_URL
      ? Promise.resolve(Response.json({ keys: [team.jwk] }))
      : network(input, init),
  );
});

/**
 * A deployed worker's marketer: the preview is theirs, and Access keeps their token in the
 * CF_Authorization cookie it sets for the host.
 */
async function deployedPreviewCookie(): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const token = await team.sign(
    accessClaims({ email: SIGNED_IN, exp: now + 3600, iat: now - 30, nbf: now - 30 }),
  );
  const expiry = now + PREVIEW_TTL_SECONDS;
  const preview = await signPreview(PREVIEW_KEY, 'default', expiry, {
    visitorId: MARKETER,
    author: SIGNED_IN,
  });
  return `userUuid=${MARKETER}; gf_preview=${preview}; CF_Authorization=${token}`;
}

describe('in development (npm start)', () => {
  const dev = (path: string, headers?: Record<string, string>) =>
    visit(developmentEntry, 'development', path, headers);

  it('a request is from where wrangler dev says without a header: the default route', async () => {
    const { route, country } = await dev(LINK);
    expect(country).toBe('US');
    expect(route).toBe('default');
  });

  it('CF-IPCountry: DE makes a visitor from DE: the TikTok DE route, kept in a signed gf_touch', async () => {
    const { route, country, response } = await dev(LINK, { 'CF-IPCountry': 'DE' });
    expect(country).toBe('DE');
    expect(route).toBe(PROBE);
    const touch = decodeFirstTouch(unsigned(setCookies(response).get('gf_touch')));
    expect(touch).toMatchObject({ source: 'tiktok', country: 'DE' });
  });

  it('a visit the header began in DE stays in DE on requests without it, until one names another', async () => {
    const first = await dev(LINK, { 'CF-IPCountry': 'DE' });
    const cookie = [...setCookies(first.response)].map(([name, value]) => `${name}=${value}`);
    // A browser's speculative prefetch, or an /api call, that a tester's header did not reach.
    const later = await dev('/', { cookie: cookie.join('; ') });
    expect(later.country).toBe('DE');
    expect((await dev('/', { cookie: cookie.join('; '), 'CF-IPCountry': 'FR' })).country).toBe(
      'FR',
    );
    // The kept country is the signed first touch's: another visitor's cookie is not read.
    const copied = cookie.filter((pair) => !pair.startsWith('userUuid='));
    const stranger = await dev('/', {
      cookie: [...copied, `userUuid=${crypto.randomUUID()}`].join('; '),
    });
    expect(stranger.country).toBe('US');
  });

  it('a route kept for DE does not hold for the same cookies from the US, on a page or a call', async () => {
    const first = await dev(LINK, { 'CF-IPCountry': 'DE' });
    expect(first.route).toBe(PROBE);
    const cookie = [...setCookies(first.response)]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    // The same browser still in Germany keeps it, with or without the link.
    expect((await dev('/', { cookie, 'CF-IPCountry': 'DE' })).route).toBe(PROBE);
    // Its whole cookie pair copied to a visitor in the US (or the visitor moved): the route's
    // audience requires DE, so the page routes them afresh and keeps the new route...
    const fromUs = await dev('/', { cookie, 'CF-IPCountry': 'US' });
    expect(fromUs.route).toBe('default');
    expect(setCookies(fromUs.response).has('gf_route')).toBe(true);
    // ...and an /api call, which never chooses, does not buy on it either.
    const call = await dev('/api/cf-country', { cookie, 'CF-IPCountry': 'US' });
    expect(call.route).toBe('default');
    expect((await dev('/api/cf-country', { cookie, 'CF-IPCountry': 'DE' })).route).toBe(PROBE);
  });

  it('CF-IPCountry: DE shows a checkout in euros; without it, in dollars', async () => {
    const inGermany = mainText((await dev('/checkout_v3_tr', { 'CF-IPCountry': 'DE' })).html);
    expect(inGermany).toMatch(/€\d+\.\d\d/);
    expect(inGermany).not.toContain('$');
    const fromWranglerDev = mainText((await dev('/checkout_v3_tr')).html);
    expect(fromWranglerDev).toMatch(/\$\d+\.\d\d/);
    expect(fromWranglerDev).not.toContain('€');
  });

  it("a header Cloudflare would never send (XX, junk) leaves wrangler dev's country", async () => {
    for (const value of ['XX', 'DEU', '<b>']) {
      expect((await dev(LINK, { 'CF-IPCountry': value })).country, value).toBe('US');
    }
  });

  it('?country=DE on a preview shows the DE route, over a kept US first touch, keeping nothing', async () => {
    // The marketer's browser visited before, from the US: a signed gf_touch and gf_route.
    const first = await dev(LINK);
    const kept = [...setCookies(first.response)].map(([name, value]) => `${name}=${value}`);
    expect(kept.some((pair) => pair.startsWith('gf_touch='))).toBe(true);
    const visitorId = setCookies(first.response).get('userUuid') ?? '';
    const cookie = [...kept, `gf_preview=${await previewToken(visitorId)}`].join('; ');

    const previewed = await dev(`${LINK}&country=DE`, { cookie });
    expect(previewed.country).toBe('DE');
    expect(previewed.route).toBe(PROBE);
    const written = [...setCookies(previewed.response).keys()];
    for (const name of ['gf_route', 'gf_touch', 'gf_variant']) expect(written).not.toContain(name);
    // The same preview without ?country= is the marketer's own visit, as before.
    expect((await dev(LINK, { cookie })).route).toBe('default');
  });

  it("a preview's /api call takes ?country= from its page (the same-origin Referer)", async () => {
    const preview = await previewCookie();
    /** The embedded portal's answer to GET /api/cf-country: the country the worker forwarded. */
    const countryOf = async (referer: string, cookie: string) => {
      const ctx = createExecutionContext();
      const request = new Request(`${ORIGIN}/api/cf-country`, {
        headers: { cookie, referer },
        cf: WRANGLER_DEV_CF,
      } as RequestInit);
      const bindings = {
        ...env,
        ENVIRONMENT: 'development',
        PORTAL_URL: undefined,
        CONSOLE_PREVIEW_KEY: PREVIEW_KEY,
      };
      const response = (await (developmentEntry as Entry).fetch(
        request,
        bindings,
        ctx,
      )) as Response;
      await waitOnExecutionContext(ctx);
      return ((await response.json()) as { country_code: string }).country_code;
    };
    expect(await countryOf(`${ORIGIN}/checkout?country=DE`, preview)).toBe('DE');
    // Another site's page, or no preview: wrangler dev's country.
    expect(await countryOf('https://elsewhere.test/?country=DE', preview)).toBe('US');
    expect(await countryOf(`${ORIGIN}/checkout?country=DE`, '')).toBe('US');
  });

  it("a preview's ?country=DE shows its checkout in euros", async () => {
    const cookie = await previewCookie();
    const previewed = await dev('/checkout_v3_tr?country=DE', { cookie });
    expect(previewed.html).toContain('Preview of variant');
    const text = mainText(previewed.html);
    expect(text).toMatch(/€\d+\.\d\d/);
    expect(text).not.toContain('$');
  });

  it('?country= without a valid preview is no country: a visitor cannot choose one by link', async () => {
    expect((await dev(`${LINK}&country=DE`)).route).toBe('default');
    const forged = `userUuid=${MARKETER}; gf_preview=${await signPreview('not-the-key', 'default', 4_000_000_000, previewHolder(MARKETER))}`;
    const refused = await dev(`${LINK}&country=DE`, { cookie: forged });
    expect(refused.country).toBe('US');
    expect(refused.route).toBe('default');
    // The marketer's own preview cookie, copied into another browser, names none either.
    const copied = `userUuid=${crypto.randomUUID()}; gf_preview=${await previewToken(MARKETER)}`;
    const elsewhere = await dev(`${LINK}&country=DE`, { cookie: copied });
    expect(elsewhere.country).toBe('US');
    expect(elsewhere.route).toBe('default');
  });
});

/** Not development: a deployed worker, or a misnamed one (which behaves as production). */
const DEPLOYED = [
  ['production', 'production'],
  ['unset', undefined],
  ['Production', 'Production'],
  ['staging', 'staging'],
] as const;

const ENTRIES = [
  ['the production entry', productionEntry],
  ['the development entry', developmentEntry],
] as const;

describe.each(ENTRIES)('%s', (_, entry) => {
  describe.each(DEPLOYED)('with ENVIRONMENT %s', (_, environment) => {
    it('CF-IPCountry does not change the edge’s country: the default route', async () => {
      const { route, country } = await visit(entry, environment, LINK, { 'CF-IPCountry': 'DE' });
      expect(country).toBe('US');
      expect(route).toBe('default');
    });
  });

  it.each([
    ['production', 'production'],
    ['unset', undefined],
    ['Production', 'Production'],
  ])('with ENVIRONMENT %s a preview’s ?country= changes nothing either', async (_, environment) => {
    const cookie = await deployedPreviewCookie();
    const { route, country } = await visit(entry, environment, `${LINK}&country=DE`, { cookie });
    // The preview itself is honoured: the page says so.
    expect(logs.requests().at(-1)).toMatchObject({ preview: true });
    expect(country).toBe('US');
    expect(route).toBe('default');
  });

  it('on staging a preview’s ?country= names the country (outside production)', async () => {
    const cookie = await deployedPreviewCookie();
    const { route, country } = await visit(entry, 'staging', `${LINK}&country=DE`, { cookie });
    expect(country).toBe('DE');
    expect(route).toBe(PROBE);
  });

  it('on staging a preview lent without its marketer’s Access sign-in previews nothing', async () => {
    // The pair of cookies, carried to a browser where nobody is signed in as the marketer.
    const lent = (await deployedPreviewCookie()).replace(/; CF_Authorization=.*$/, '');
    const { route, country } = await visit(entry, 'staging', `${LINK}&country=DE`, {
      cookie: lent,
    });
    expect(country).toBe('US');
    expect(route).toBe('default');
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({ warning: 'preview_cookie_ignored', reason: 'no_identity' }),
    );
  });
});

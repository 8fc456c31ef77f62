import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { headerSafe, signedValue, unsigned } from '../../fixtures/signed-cookies';
import { freshApp, putConfig, runPageScript, setCookies } from '../fetch-app';
import {
  aBrowser,
  CHROME,
  emptyExperiments,
  exposureOf,
  PRICE_TEST,
  putExperiments,
  TWO_WAY,
} from './experiment-fixtures';

/**
 * The variant cookies (gf_variant, the split's pin, and gf_x, the other experiments') are signed
 * for the visitor id (worker/request/cookies.ts): a pin a visitor wrote, edited or
 * copied (one naming a paused variant, say) is no pin, so they are drawn like a new visitor and
 * counted in the variant drawn; a visitor exposed before a variant was paused keeps it, as
 * docs/experiments.md promises.
 */

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

const CHEAP_PAUSED: ExperimentDocument = {
  ...PRICE_TEST,
  variants: { ...PRICE_TEST.variants, cheap: { ...PRICE_TEST.variants.cheap!, weight: 0 } },
};
const LP17_PAUSED = {
  ...TWO_WAY,
  variants: { ...TWO_WAY.variants, lp17: { ...TWO_WAY.variants.lp17, weight: 0 } },
};
/** The split of one variant: the price test alone decides the checkout. */
const ONE_WAY = { version: 1, defaultVariant: 'default', variants: { default: { weight: 1 } } };
const CHEAP_PRICE = '2.99';
const LP17_HEADING = 'Locate any phone, with consent';

const ATTACKER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const VICTIM = '9f8e7d6c-5b4a-4392-8817-161514131211';

/** The app with every draw fixed at 0.7. */
const app = () => freshApp({ random: () => 0.7, now: () => NOW });

let warnings: ReturnType<typeof vi.spyOn>;
let errors: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  await putConfig('split', ONE_WAY);
  await putExperiments({ 'pw-price': PRICE_TEST });
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

const lines = (spy: ReturnType<typeof vi.spyOn>): Record<string, unknown>[] =>
  spy.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
/** Error lines but the ones of the config keys this file leaves to the defaults. */
const errorLines = () => lines(errors).filter((line) => line.error !== 'config_missing');
const invalidCookieLines = () =>
  lines(warnings).filter((line) => line.warning === 'routing_cookie_invalid');

let visitors = 0;
/** A visitor id of its own for each request, so no exposure of another request is theirs. */
function aVisitor(): string {
  visitors += 1;
  return `00000000-0000-4000-8000-${String(visitors).padStart(12, '0')}`;
}

/**
 * A page request (its script run, unless `script` is false: more pages from one address than
 * its confirmations an hour), and the pins it wrote (unsigned) and its body.
 */
async function page(
  fetchApp: ReturnType<typeof app>,
  path: string,
  cookie: string,
  { script = true } = {},
) {
  const headers = { 'user-agent': CHROME };
  const loaded = await fetchApp(path, { headers: { ...headers, cookie } });
  const response = script ? await runPageScript(fetchApp, loaded, { cookie, headers }) : loaded;
  const cookies = setCookies(response);
  return {
    status: response.status,
    body: await response.text(),
    pins: parsePins(unsigned(cookies.get('gf_x'))),
    variant: unsigned(cookies.get('gf_variant')),
    headers: response.headers.getSetCookie(),
  };
}

describe('a variant cookie a visitor made, edited or copied is not read', () => {
  it('a gf_x pin naming a paused variant: drawn afresh, shown and counted in what was drawn', async () => {
    await putExperiments({ 'pw-price': CHEAP_PAUSED });
    const fetchApp = app();
    const pin = 'pw-price~cheap.';
    const forgeries = async (visitor: string) => [
      pin,
      `${pin}.${'A'.repeat(43)}`,
      await signedValue('gf_x', aVisitor(), pin),
      await signedValue('gf_variant', visitor, pin),
    ];
    for (const forged of await forgeries(ATTACKER)) {
      const served = await page(
        fetchApp,
        '/checkout_v3_tr',
        `userUuid=${ATTACKER}; gf_x=${forged}`,
      );
      expect(served.status, forged).toBe(200);
      expect(served.body, forged).not.toContain(CHEAP_PRICE);
      expect([...served.pins], forged).toEqual([['pw-price', 'current']]);
    }
    expect(errorLines()).toEqual([]);
  });

  it('a gf_variant naming a paused split variant: drawn afresh and exposed in it', async () => {
    await putConfig('split', LP17_PAUSED);
    const fetchApp = app();
    for (const forged of [
      'lp17',
      `lp17.${'A'.repeat(43)}`,
      await signedValue('gf_variant', VICTIM, 'lp17'),
    ]) {
      const visitor = aVisitor();
      const served = await page(fetchApp, '/', `userUuid=${visitor}; gf_variant=${forged}`);
      expect(served.status, forged).toBe(200);
      expect(served.body, forged).not.toContain(LP17_HEADING);
      expect(served.variant, forged).toBe('default');
      expect(await exposureOf(visitor), forged).toMatchObject({ variant: 'default' });
    }
  });

  it('is reported once for the visit: cleared, then replaced by the pins drawn', async () => {
    await putExperiments({ 'pw-price': CHEAP_PAUSED });
    const browser = aBrowser(
      app(),
      new Map([
        ['userUuid', ATTACKER],
        ['gf_variant', 'lp17'],
        ['gf_x', 'pw-price~cheap.'],
      ]),
    );
    // The landing exposes nothing: both cookies are cleared.
    const landing = await browser.request('/');
    expect(landing.status).toBe(200);
    expect(browser.cookies.has('gf_x')).toBe(false);
    expect(browser.cookies.has('gf_variant')).toBe(false);
    for (const path of ['/searching', '/signup', '/checkout_v3_tr', '/checkout_v3_tr']) {
      const next = await browser.request(path);
      expect(next.status, path).toBe(200);
      expect(next.body, path).not.toContain(CHEAP_PRICE);
    }
    // The checkout exposed the visitor to the variant drawn, pinned and signed.
    expect([...parsePins(unsigned(browser.cookies.get('gf_x')))]).toEqual([
      ['pw-price', 'current'],
    ]);
    expect(invalidCookieLines()).toEqual([
      expect.objectContaining({ level: 'warn', cookie: 'gf_x', reason: 'unsigned' }),
      expect.objectContaining({ level: 'warn', cookie: 'gf_variant', reason: 'unsigned' }),
    ]);
  });

  it('one Set-Cookie per pin cookie when the page pins afresh what it could not read', async () => {
    await putConfig('split', TWO_WAY);
    const served = await page(app(), '/', `userUuid=${aVisitor()}; gf_variant=default`);
    expect(served.headers.filter((cookie) => cookie.startsWith('gf_variant='))).toEqual([
      expect.stringMatching(/^gf_variant=lp17\.[\w-]{43}; Max-Age=31536000/),
    ]);
  });
});

describe('a visitor exposed before a variant was paused keeps it', () => {
  it('in an experiment (gf_x)', async () => {
    const pinned = aBrowser(app());
    expect((await pinned.request('/checkout_v3_tr')).body).toContain(CHEAP_PRICE);
    await putExperiments({ 'pw-price': CHEAP_PAUSED });
    expect((await pinned.request('/checkout_v3_tr')).body).toContain(CHEAP_PRICE);
    expect((await aBrowser(app()).request('/checkout_v3_tr')).body).not.toContain(CHEAP_PRICE);
    expect(invalidCookieLines()).toEqual([]);
  });

  it('in the split (gf_variant), counted once', async () => {
    await putConfig('split', TWO_WAY);
    const pinned = aBrowser(app());
    await pinned.request('/');
    expect(pinned.variant()).toBe('lp17');
    await putConfig('split', LP17_PAUSED);
    const next = await pinned.request('/');
    expect(next.body).toContain(LP17_HEADING);
    expect(await exposureOf(pinned.visitorId())).toMatchObject({ variant: 'lp17' });
    expect(invalidCookieLines()).toEqual([]);
  });
});

describe('whatever a visitor writes into the variant cookies (property)', () => {
  const tail = fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), { nil: undefined });
  const signedLike = (values: fc.Arbitrary<string>) =>
    fc.tuple(values, tail).map(([value, mac]) => (mac === undefined ? value : `${value}.${mac}`));
  const variantValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }).map(encodeURIComponent),
    signedLike(fc.constantFrom('lp17', 'default', 'gone/old')),
  );
  const pinsValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }).map(encodeURIComponent),
    signedLike(
      fc
        .array(fc.constantFrom('pw-price~cheap.', 'pw-price~current.', 'split~lp17.', 'x~y.'), {
          maxLength: 3,
        })
        .map((pins) => pins.join('')),
    ),
  );
  it('never a 5xx, and never a variant other than a new visitor is drawn', async () => {
    await putConfig('split', LP17_PAUSED);
    await putExperiments({ 'pw-price': CHEAP_PAUSED });
    const fetchApp = app();
    const fresh = await page(fetchApp, '/checkout_v3_tr', `userUuid=${aVisitor()}`);
    expect(fresh.variant).toBe('default');
    expect([...fresh.pins]).toEqual([['pw-price', 'current']]);
    await fc.assert(
      fc.asyncProperty(
        fc.option(variantValue, { nil: undefined }),
        fc.option(pinsValue, { nil: undefined }),
        async (variant, pins) => {
          const cookie = [
            `userUuid=${aVisitor()}`,
            variant === undefined ? '' : `gf_variant=${headerSafe(variant)}`,
            pins === undefined ? '' : `gf_x=${headerSafe(pins)}`,
          ]
            .filter(Boolean)
            .join('; ');
          const served = await page(fetchApp, '/checkout_v3_tr', cookie, { script: false });
          expect(served.status).toBeLessThan(500);
          expect(served.body).not.toContain(CHEAP_PRICE);
          expect(served.variant).toBe(fresh.variant);
          expect(served.pins).toEqual(fresh.pins);
        },
      ),
      { numRuns: 60 },
    );
    expect(errorLines()).toEqual([]);
  });
});

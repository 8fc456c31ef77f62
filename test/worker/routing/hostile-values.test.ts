import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Condition } from '../../../shared/config/routing';
import { decodeFirstTouch, type FirstTouch } from '../../../worker/routing/first-touch';
import { keptRoute, unsigned } from '../../fixtures/signed-cookies';
import { setCookies } from '../fetch-app';
import { forgetConfig, PROBE, probeRouting, routingApp } from './routing-app';

/**
 * Anyone can type anything into a link. Every attribute a link carries (the click ids and
 * utm_source behind `source`, each utm field, the entry alias) is sent oversized, with control
 * characters, with malformed percent-encoding and repeated: the page still answers 200, nothing
 * is logged as an error, and the value counts as absent, both for the routes and in the first
 * touch kept for the visit. Headers and request.cf get the same treatment.
 */

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

/** How each query parameter is spoiled; `v` is a value the probe route would take. */
const HOSTILE: Record<string, (name: string, v: string) => string> = {
  oversized: (name, v) => `${name}=${v}${'x'.repeat(5000)}`,
  'a NUL byte': (name, v) => `${name}=${v}%00x`,
  'a line feed': (name, v) => `${name}=${v}%0Ax`,
  'an escape': (name, v) => `${name}=${v}%1B%5B31m`,
  'a bidi control': (name, v) => `${name}=%E2%80%AE${v}`,
  'a stray percent': (name, v) => `${name}=${v}%ZZ`,
  'a percent at the end': (name, v) => `${name}=${v}%`,
  'a cut UTF-8 sequence': (name, v) => `${name}=${v}%E0%A4%A`,
  'a byte that is no UTF-8': (name, v) => `${name}=${v}%FF`,
  'repeated with the same value': (name, v) => `${name}=${v}&${name}=${v}`,
  'repeated with another value': (name, v) => `${name}=${v}&${name}=other`,
};

interface Target {
  /** The query parameter. */
  name: string;
  /** A value the probe takes when it comes alone and clean. */
  value: string;
  condition: Condition;
  /** Where the first touch keeps what it read. */
  kept: (touch: FirstTouch) => unknown;
  absent: unknown;
}

const text = (attribute: Condition['attribute']): Condition => ({
  attribute,
  operator: 'starts_with',
  values: ['bf'],
});

const TARGETS: Target[] = [
  ...(['fbclid', 'ttclid', 'gclid', 'gbraid', 'wbraid'] as const).map(
    (name): Target => ({
      name,
      value: 'AbC.123',
      condition: { attribute: 'source', operator: 'in', values: ['meta', 'tiktok', 'google'] },
      kept: (touch: FirstTouch) => touch.source,
      absent: 'direct',
    }),
  ),
  ...(['source', 'medium', 'campaign', 'content', 'term'] as const).map(
    (field): Target => ({
      name: `utm_${field}`,
      value: 'bf24',
      condition: text(`utm_${field}`),
      kept: (touch: FirstTouch) => touch.utm[field],
      absent: null,
    }),
  ),
  {
    name: 'utm_source',
    value: 'tiktok',
    condition: { attribute: 'source', operator: 'in', values: ['tiktok', 'other'] },
    kept: (touch: FirstTouch) => touch.source,
    absent: 'direct',
  },
  {
    name: 'r',
    value: 'bf24',
    condition: text('entry'),
    kept: (touch: FirstTouch) => touch.entry,
    absent: null,
  },
];

async function firstPage(condition: Condition, query: string) {
  const fetchApp = await routingApp(probeRouting([[condition]]));
  const response = await fetchApp(`/?${query}`);
  const body = await response.text();
  const cookies = setCookies(response);
  return {
    status: response.status,
    body,
    route: keptRoute(cookies.get('gf_route')),
    touch: decodeFirstTouch(unsigned(cookies.get('gf_touch'))),
  };
}

describe('hostile query values count as absent', () => {
  it.each(TARGETS.map((target) => [`${target.name} (${target.condition.attribute})`, target]))(
    '%s',
    async (_, target) => {
      // The clean value is taken: the spoiled ones below fail for being spoiled.
      const clean = await firstPage(target.condition, `${target.name}=${target.value}`);
      expect(clean.route).toBe(PROBE);
      expect(target.kept(clean.touch!)).not.toEqual(target.absent);
      for (const [how, spoil] of Object.entries(HOSTILE)) {
        const page = await firstPage(target.condition, spoil(target.name, target.value));
        expect(page.status, how).toBe(200);
        expect(page.body, how).toContain('<h1 id="screen-title">');
        expect(page.route, how).toBe('default');
        expect(target.kept(page.touch!), how).toEqual(target.absent);
      }
      expect(errors).not.toHaveBeenCalled();
    },
  );
});

describe('hostile headers and request.cf count as absent', () => {
  async function routeFor(condition: Condition, init: RequestInit & { cf?: unknown }) {
    const fetchApp = await routingApp(probeRouting([[condition]]));
    const response = await fetchApp('/', init as RequestInit);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    return keptRoute(setCookies(response).get('gf_route'));
  }

  it('an oversized user agent is no platform, browser or app', async () => {
    const huge = `Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) musical_ly_35 ${'x'.repeat(3000)}`;
    const headers = { 'user-agent': huge };
    expect(
      await routeFor({ attribute: 'platform', operator: 'in', values: ['other'] }, { headers }),
    ).toBe(PROBE);
    expect(
      await routeFor({ attribute: 'browser', operator: 'in', values: ['other'] }, { headers }),
    ).toBe(PROBE);
    expect(
      await routeFor({ attribute: 'in_app', operator: 'in', values: ['none'] }, { headers }),
    ).toBe(PROBE);
  });

  it('an oversized or unknown platform hint leaves the user agent to say', async () => {
    const windows =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36';
    for (const hint of [`"iOS${' '.repeat(100)}"`, '"i\tOS"', '"Plan 9"', '""']) {
      const headers = { 'user-agent': windows, 'sec-ch-ua-platform': hint };
      expect(
        await routeFor({ attribute: 'platform', operator: 'in', values: ['desktop'] }, { headers }),
        hint,
      ).toBe(PROBE);
    }
  });

  it('a referrer that is no URL, or oversized, is no referrer', async () => {
    const direct: Condition = { attribute: 'source', operator: 'in', values: ['direct'] };
    for (const referer of ['not a url', 'http://%%%', `https://${'a'.repeat(5000)}.example/`]) {
      expect(await routeFor(direct, { headers: { referer } }), referer.slice(0, 20)).toBe(PROBE);
    }
  });

  it('a time zone nobody has reads the time in UTC; a country code that is none is no country', async () => {
    const utcHour: Condition = { attribute: 'hour', operator: 'in', values: [22] };
    for (const timezone of ['Europe/Nowhere', 'x'.repeat(500), '../../etc/passwd', 7]) {
      expect(await routeFor(utcHour, { cf: { timezone } }), String(timezone)).toBe(PROBE);
    }
    const noCountry: Condition = { attribute: 'country', operator: 'not_in', values: ['DE'] };
    for (const country of ['DEU', 'XX', 'T1']) {
      expect(await routeFor(noCountry, { headers: { 'cf-ipcountry': country } }), country).toBe(
        PROBE,
      );
    }
  });

  it('a forged first-touch cookie is read afresh from the link', async () => {
    const tiktok: Condition = { attribute: 'source', operator: 'in', values: ['tiktok'] };
    const fetchApp = await routingApp(probeRouting([[tiktok]]));
    for (const forged of ['x', 'eyJ2IjoxfQ', '%%%', 'A'.repeat(5000)]) {
      const response = await fetchApp('/?ttclid=E.C.P.x', {
        headers: { cookie: `gf_touch=${forged}` },
      });
      expect(response.status).toBe(200);
      expect(keptRoute(setCookies(response).get('gf_route')), forged.slice(0, 10)).toBe(PROBE);
    }
  });
});

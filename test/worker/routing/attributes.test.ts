import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Condition, RoutingDocument } from '../../../shared/config/routing';
import { encodeFirstTouch, type FirstTouch } from '../../../worker/routing/first-touch';
import { IN_APP_USER_AGENTS, NORMAL_USER_AGENTS } from '../../fixtures/in-app-user-agents';
import { signedPair } from '../../fixtures/signed-cookies';
import { forgetConfig, NOW, PROBE, probeRouting, routeOf, routingApp } from './routing-app';

/**
 * Every attribute a route's audience can read, through the real app with the routing in KV: a
 * page request that has the value is given the probe route, one that has not falls through to
 * the default. Each request is a first visit (no cookies), so the route is chosen from it.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

/** The returning visitor of the cases with a first touch. */
const VISITOR = '0b3c1f2e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

interface Case {
  condition: Condition;
  path?: string;
  init?: RequestInit & { cf?: Record<string, unknown> };
  routing?: Partial<RoutingDocument>;
  /** A returning visitor's first touch, signed for them (gf_touch), as the worker kept it. */
  touch?: FirstTouch;
  /** Whether the visitor is taken by the probe route. */
  taken: boolean;
}

const ua = (userAgent: string, more: Record<string, string> = {}) => ({
  headers: { 'user-agent': userAgent, ...more },
});

const OPERA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0';
const SAFARI = NORMAL_USER_AGENTS['iOS Safari']!;
const WINDOWS_CHROME = NORMAL_USER_AGENTS['Chrome on Windows']!;
const TIKTOK_IOS = IN_APP_USER_AGENTS.tiktok.ios[0]!;
const INSTAGRAM_ANDROID = IN_APP_USER_AGENTS.instagram.android[0]!;

async function takenBy(test: Case): Promise<boolean> {
  const fetchApp = await routingApp(probeRouting([[test.condition]], {}, test.routing));
  let init = test.init as RequestInit | undefined;
  if (test.touch) {
    const touch = await signedPair('gf_touch', VISITOR, encodeFirstTouch(test.touch));
    init = { ...init, headers: { cookie: `userUuid=${VISITOR}; ${touch}` } };
  }
  const route = await routeOf(fetchApp, test.path ?? '/', init);
  expect(route === PROBE || route === 'default', `route ${route}`).toBe(true);
  return route === PROBE;
}

function table(cases: Record<string, Case>) {
  return Object.entries(cases).map(([name, test]) => [name, test] as const);
}

const source = (values: string[], operator: Condition['operator'] = 'in'): Condition => ({
  attribute: 'source',
  operator,
  values,
});

describe('source, from click ids, utm_source and its aliases, and the referrer', () => {
  it.each(
    table({
      'fbclid is meta': { condition: source(['meta']), path: '/?fbclid=IwAR0abc', taken: true },
      'ttclid is tiktok': { condition: source(['tiktok']), path: '/?ttclid=E.C.P.x', taken: true },
      'gclid is google': { condition: source(['google']), path: '/?gclid=Cj0KCQ', taken: true },
      'gbraid is google': { condition: source(['google']), path: '/?gbraid=0AAAAA', taken: true },
      'wbraid is google': { condition: source(['google']), path: '/?wbraid=CjkKCQ', taken: true },
      'a click id outranks utm_source': {
        condition: source(['meta']),
        path: '/?ttclid=E.C.P.x&utm_source=facebook',
        taken: false,
      },
      'utm_source=fb, a built-in alias, is meta': {
        condition: source(['meta']),
        path: '/?utm_source=fb',
        taken: true,
      },
      'utm_source=Instagram, any case, is meta': {
        condition: source(['meta']),
        path: '/?utm_source=Instagram',
        taken: true,
      },
      'utm_source=tt is tiktok': {
        condition: source(['tiktok']),
        path: '/?utm_source=tt',
        taken: true,
      },
      'utm_source=YouTube is google': {
        condition: source(['google']),
        path: '/?utm_source=YouTube',
        taken: true,
      },
      "a marketer's alias": {
        condition: source(['tiktok']),
        path: '/?utm_source=TikTok-Promo',
        routing: { aliases: { 'tiktok-promo': 'tiktok' } },
        taken: true,
      },
      "a marketer's alias over a built-in one": {
        condition: source(['other']),
        path: '/?utm_source=youtube',
        routing: { aliases: { youtube: 'other' } },
        taken: true,
      },
      'an unknown utm_source is other': {
        condition: source(['other']),
        path: '/?utm_source=newsletter',
        taken: true,
      },
      'a search engine referrer is organic': {
        condition: source(['organic']),
        init: { headers: { referer: 'https://www.google.de/search?q=find+phone' } },
        taken: true,
      },
      'another site is referral': {
        condition: source(['referral']),
        init: { headers: { referer: 'https://blog.example.com/review' } },
        taken: true,
      },
      'our own pages refer to nothing: direct': {
        condition: source(['direct']),
        init: { headers: { referer: 'https://funnel.test/features' } },
        taken: true,
      },
      'nothing at all is direct': { condition: source(['direct']), taken: true },
      'not_in: another source': {
        condition: source(['direct', 'organic'], 'not_in'),
        path: '/?ttclid=E.C.P.x',
        taken: true,
      },
      'not_in: the source itself': {
        condition: source(['direct', 'organic'], 'not_in'),
        taken: false,
      },
    }),
  )('%s', async (_, test) => {
    expect(await takenBy(test)).toBe(test.taken);
  });
});

const text = (
  attribute: Condition['attribute'],
  operator: Condition['operator'],
  values: string[],
): Condition => ({ attribute, operator, values });

describe('the campaign texts: each utm field and the entry link, by every text operator', () => {
  it.each(['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const)(
    '%s equals its value, ignoring case',
    async (field) => {
      const condition = text(field, 'equals', ['Winter_BF']);
      expect(await takenBy({ condition, path: `/?${field}=winter_bf`, taken: true })).toBe(true);
      expect(await takenBy({ condition, path: `/?${field}=winter`, taken: false })).toBe(false);
      // Another field's value is not this one's.
      const other = field === 'utm_term' ? 'utm_content' : 'utm_term';
      expect(await takenBy({ condition, path: `/?${other}=winter_bf`, taken: false })).toBe(false);
    },
  );

  it.each(
    table({
      'in: one of the values': {
        condition: text('utm_campaign', 'in', ['bf24', 'CYBER24']),
        path: '/?utm_campaign=Cyber24',
        taken: true,
      },
      'in: none of them': {
        condition: text('utm_campaign', 'in', ['bf24', 'cyber24']),
        path: '/?utm_campaign=bf25',
        taken: false,
      },
      'not_in: another value': {
        condition: text('utm_medium', 'not_in', ['email']),
        path: '/?utm_medium=paid_social',
        taken: true,
      },
      'not_in: the value, in another case': {
        condition: text('utm_medium', 'not_in', ['email']),
        path: '/?utm_medium=EMAIL',
        taken: false,
      },
      'not_in: an absent value is none of them': {
        condition: text('utm_medium', 'not_in', ['email']),
        taken: true,
      },
      'contains: a part, ignoring case': {
        condition: text('utm_campaign', 'contains', ['xmas', 'BF']),
        path: '/?utm_campaign=winter_bf_2024',
        taken: true,
      },
      'contains: no part': {
        condition: text('utm_campaign', 'contains', ['xmas', 'bf']),
        path: '/?utm_campaign=spring_sale',
        taken: false,
      },
      'contains: an absent value holds nothing': {
        condition: text('utm_campaign', 'contains', ['bf']),
        taken: false,
      },
      'starts_with: the prefix, ignoring case': {
        condition: text('utm_content', 'starts_with', ['UGC_']),
        path: '/?utm_content=ugc_video_3',
        taken: true,
      },
      'starts_with: the text elsewhere': {
        condition: text('utm_content', 'starts_with', ['ugc_']),
        path: '/?utm_content=video_ugc_3',
        taken: false,
      },
      'utm values are trimmed': {
        condition: text('utm_term', 'equals', ['phone tracker']),
        path: '/?utm_term=%20phone%20tracker%20',
        taken: true,
      },
      'entry: the ?r= alias, lower-cased': {
        condition: text('entry', 'equals', ['bf24']),
        path: '/?r=BF24',
        taken: true,
      },
      'entry: starts_with': {
        condition: text('entry', 'starts_with', ['bf']),
        path: '/?r=bf24-tiktok',
        taken: true,
      },
      'entry: contains': {
        condition: text('entry', 'contains', ['tiktok']),
        path: '/?r=bf24-tiktok',
        taken: true,
      },
      'entry: not_in': {
        condition: text('entry', 'not_in', ['bf24']),
        path: '/?r=bf24',
        taken: false,
      },
      'entry: none': { condition: text('entry', 'in', ['bf24']), taken: false },
    }),
  )('%s', async (_, test) => {
    expect(await takenBy(test)).toBe(test.taken);
  });
});

const list = (
  attribute: Condition['attribute'],
  values: (string | number)[],
  operator: Condition['operator'] = 'in',
): Condition => ({ attribute, operator, values });

describe('country, language, platform, browser, in-app browser and returning visitors', () => {
  it.each(
    table({
      'country from request.cf': {
        condition: list('country', ['DE', 'AT']),
        init: { cf: { country: 'DE' } },
        taken: true,
      },
      'country from CF-IPCountry': {
        condition: list('country', ['AT']),
        init: { headers: { 'cf-ipcountry': 'at' } },
        taken: true,
      },
      'country: another': {
        condition: list('country', ['AT']),
        init: { cf: { country: 'FR' } },
        taken: false,
      },
      'country: not_in, unknown country': {
        condition: list('country', ['DE'], 'not_in'),
        taken: true,
      },
      'country: in, unknown country': { condition: list('country', ['DE']), taken: false },
      'language from Accept-Language': {
        condition: list('language', ['de']),
        init: { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } },
        taken: true,
      },
      'language: not_in': {
        condition: list('language', ['en'], 'not_in'),
        init: { headers: { 'accept-language': 'en-US' } },
        taken: false,
      },
      'platform ios': { condition: list('platform', ['ios']), init: ua(SAFARI), taken: true },
      'platform android': {
        condition: list('platform', ['android']),
        init: ua(NORMAL_USER_AGENTS['Chrome on Android, reduced user agent']!),
        taken: true,
      },
      'platform desktop': {
        condition: list('platform', ['desktop']),
        init: ua(WINDOWS_CHROME),
        taken: true,
      },
      'platform other': {
        condition: list('platform', ['other']),
        init: ua('curl/8.5.0'),
        taken: true,
      },
      'platform from Sec-CH-UA-Platform over the user agent': {
        condition: list('platform', ['android']),
        init: ua(WINDOWS_CHROME, { 'sec-ch-ua-platform': '"Android"' }),
        taken: true,
      },
      'platform desktop from a macOS hint': {
        condition: list('platform', ['ios'], 'not_in'),
        init: ua(SAFARI, { 'sec-ch-ua-platform': '"macOS"' }),
        taken: true,
      },
      'platform: an unknown hint leaves the user agent': {
        condition: list('platform', ['ios']),
        init: ua(SAFARI, { 'sec-ch-ua-platform': '"Unknown"' }),
        taken: true,
      },
      'browser safari': { condition: list('browser', ['safari']), init: ua(SAFARI), taken: true },
      'browser chrome': {
        condition: list('browser', ['chrome']),
        init: ua(NORMAL_USER_AGENTS['Chrome on iOS, CriOS']!),
        taken: true,
      },
      'browser firefox': {
        condition: list('browser', ['firefox']),
        init: ua(NORMAL_USER_AGENTS['Firefox on Windows']!),
        taken: true,
      },
      'browser edge': {
        condition: list('browser', ['edge']),
        init: ua(NORMAL_USER_AGENTS['Edge on Windows']!),
        taken: true,
      },
      'browser samsung': {
        condition: list('browser', ['samsung']),
        init: ua(NORMAL_USER_AGENTS['Samsung Internet']!),
        taken: true,
      },
      'browser opera': { condition: list('browser', ['opera']), init: ua(OPERA), taken: true },
      'browser in_app': {
        condition: list('browser', ['in_app']),
        init: ua(TIKTOK_IOS),
        taken: true,
      },
      'browser other': {
        condition: list('browser', ['other']),
        init: ua('curl/8.5.0'),
        taken: true,
      },
      'browser: not_in in_app, in an app': {
        condition: list('browser', ['in_app'], 'not_in'),
        init: ua(INSTAGRAM_ANDROID),
        taken: false,
      },
      'in_app tiktok': { condition: list('in_app', ['tiktok']), init: ua(TIKTOK_IOS), taken: true },
      'in_app instagram': {
        condition: list('in_app', ['instagram', 'facebook']),
        init: ua(INSTAGRAM_ANDROID),
        taken: true,
      },
      'in_app facebook': {
        condition: list('in_app', ['facebook']),
        init: ua(IN_APP_USER_AGENTS.facebook.android[0]!),
        taken: true,
      },
      'in_app none': { condition: list('in_app', ['none']), init: ua(SAFARI), taken: true },
      'in_app: another app': {
        condition: list('in_app', ['tiktok']),
        init: ua(INSTAGRAM_ANDROID),
        taken: false,
      },
      'visitor new: no visitor cookie': { condition: list('visitor', ['new']), taken: true },
      'visitor returning: a visitor cookie': {
        condition: list('visitor', ['returning']),
        init: { headers: { cookie: 'userUuid=3f1e1c52-7c0a-4f6e-9d8b-2b1f0e5a9c41' } },
        taken: true,
      },
      'visitor returning: a forged visitor cookie is no visitor': {
        condition: list('visitor', ['returning']),
        init: { headers: { cookie: 'userUuid=not-a-uuid' } },
        taken: false,
      },
    }),
  )('%s', async (_, test) => {
    expect(await takenBy(test)).toBe(test.taken);
  });
});

describe("hour and weekday, in the visitor's time zone (request.cf.timezone)", () => {
  // NOW is Wednesday 22:30 UTC.
  it.each(
    table({
      'Tokyo: Thursday, 7 h': {
        condition: list('hour', [7]),
        init: { cf: { timezone: 'Asia/Tokyo' } },
        taken: true,
      },
      'Tokyo: Thursday': {
        condition: list('weekday', ['thu']),
        init: { cf: { timezone: 'Asia/Tokyo' } },
        taken: true,
      },
      'New York: Wednesday, 17 h': {
        condition: list('hour', [17]),
        init: { cf: { timezone: 'America/New_York' } },
        taken: true,
      },
      'New York: not Thursday': {
        condition: list('weekday', ['thu'], 'not_in'),
        init: { cf: { timezone: 'America/New_York' } },
        taken: true,
      },
      'no zone: UTC, 22 h': { condition: list('hour', [22, 23]), taken: true },
      'no zone: UTC, Wednesday': { condition: list('weekday', ['wed']), taken: true },
      'a zone the runtime does not know: UTC': {
        condition: list('hour', [22]),
        init: { cf: { timezone: 'Mars/Olympus_Mons' } },
        taken: true,
      },
      'hour: not_in': {
        condition: list('hour', [22], 'not_in'),
        init: { cf: { timezone: 'Europe/Berlin' } },
        taken: true,
      },
    }),
  )('%s', async (_, test) => {
    expect(await takenBy(test)).toBe(test.taken);
  });
});

describe('days since the visit began (the first touch kept in gf_touch)', () => {
  const DAY = 24 * 60 * 60 * 1000;
  /** A visitor whose first touch was `days` ago, back without a route for this visit. */
  const began = (msAgo: number): FirstTouch => ({
    source: 'direct',
    click_id: null,
    utm: { source: null, medium: null, campaign: null, content: null, term: null },
    entry: null,
    country: null,
    began_at: NOW - msAgo,
  });
  it.each(
    table({
      'a first visit is day 0': { condition: list('visit_days', [0]), taken: true },
      'back three days later': {
        condition: list('visit_days', [3]),
        touch: began(3 * DAY + 60_000),
        taken: true,
      },
      'not yet a whole day': {
        condition: list('visit_days', [1]),
        touch: began(DAY - 60_000),
        taken: false,
      },
      'a touch from the future (another edge’s clock) reads as day 0': {
        condition: list('visit_days', [0]),
        touch: began(-60_000),
        taken: true,
      },
      not_in: { condition: list('visit_days', [0], 'not_in'), touch: began(5 * DAY), taken: true },
    }),
  )('%s', async (_, test) => {
    expect(await takenBy(test)).toBe(test.taken);
  });
});

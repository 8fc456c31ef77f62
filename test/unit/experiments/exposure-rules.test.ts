import { describe, expect, it } from 'vitest';
import {
  type AnsweredRequest,
  exposedAt,
  exposureVerdict,
  isFirstVisit,
  isSpeculative,
  type RouteRequest,
} from '../../../worker/experiments/exposure/exposure-rules';
import { isCookielessReturn } from '../../../worker/request/cookies';

/** When a request exposes a visitor (worker/experiments/exposure/exposure-rules.ts). */

const FIRST_SCREEN: AnsweredRequest = {
  method: 'GET',
  path: '/',
  status: 200,
  preview: false,
  skipSplit: false,
  speculative: false,
  cookielessReturn: false,
  bot: null,
};

describe('exposureVerdict', () => {
  it.each(['/', '/one_pager', '/checkout_v3_tr', '/paycheck1_pr5_h_win'])(
    'the screen %s can expose the visitor',
    (path) => {
      expect(exposureVerdict({ ...FIRST_SCREEN, path })).toBe('exposed');
    },
  );

  it('a known bot’s page is a bot’s', () => {
    expect(exposureVerdict({ ...FIRST_SCREEN, bot: 'user_agent' })).toBe('bot');
  });

  it.each<[string, Partial<AnsweredRequest>]>([
    ['a preview', { preview: true }],
    ['skip_split', { skipSplit: true }],
    ['a prefetch', { speculative: true }],
    ['a bot’s prefetch', { speculative: true, bot: 'user_agent' }],
    ['a HEAD', { method: 'HEAD' }],
    ['a form POST', { method: 'POST', path: '/one_pager', status: 303 }],
    ['an error page', { status: 500 }],
    ['a 404', { path: '/wp-login.php', status: 404 }],
    ['an unknown path answered 200', { path: '/wp-login.php' }],
    ['the API', { path: '/api/cf-country' }],
    ['the collector', { path: '/e', method: 'POST' }],
    ['the console', { path: '/console' }],
    ['an asset', { path: '/assets/boot.js' }],
    ['a screen with a trailing slash', { path: '/one_pager/' }],
    ['a later page of a browser that keeps no cookies', { cookielessReturn: true }],
  ])('%s exposes nobody', (_, change) => {
    expect(exposureVerdict({ ...FIRST_SCREEN, ...change })).toBeNull();
  });
});

describe('exposedAt', () => {
  it('exposes on the trigger screen and on every screen after it', () => {
    expect(exposedAt(3, 3)).toBe(true);
    expect(exposedAt(5, 3)).toBe(true);
  });

  it('exposes nobody before the trigger: the variants showed the same so far', () => {
    expect(exposedAt(0, 3)).toBe(false);
    expect(exposedAt(2, 3)).toBe(false);
  });

  it('exposes nobody off the funnel, or where the variants never differ', () => {
    expect(exposedAt(-1, 0)).toBe(false);
    expect(exposedAt(4, null)).toBe(false);
  });
});

/** A new visitor's first screen, the route chosen on it. */
const FIRST_VISIT: RouteRequest = {
  method: 'GET',
  path: '/',
  status: 200,
  routeChosen: true,
  returning: false,
  preview: false,
  speculative: false,
  cookielessReturn: false,
  bot: null,
};

describe('isFirstVisit', () => {
  it.each(['/', '/one_pager', '/signup'])('a new visitor’s route chosen on %s counts', (path) => {
    expect(isFirstVisit({ ...FIRST_VISIT, path })).toBe(true);
  });

  it.each<[string, Partial<RouteRequest>]>([
    ['a route from the gf_route cookie', { routeChosen: false }],
    ['a returning visitor (userUuid cookie)', { returning: true }],
    ['a preview', { preview: true }],
    ['a prefetch', { speculative: true }],
    ['a known bot', { bot: 'verified_bot' }],
    ['a later page of a browser that keeps no cookies', { cookielessReturn: true }],
    ['a HEAD', { method: 'HEAD' }],
    ['a form POST', { method: 'POST', path: '/one_pager', status: 303 }],
    ['an error page', { status: 500 }],
    ['a 404', { path: '/wp-login.php', status: 404 }],
    ['the API', { path: '/api/cf-country' }],
  ])('%s counts no first visit', (_, change) => {
    expect(isFirstVisit({ ...FIRST_VISIT, ...change })).toBe(false);
  });
});

describe('isSpeculative', () => {
  const headers = (pairs: Record<string, string | undefined>) => (name: string) => pairs[name];

  it.each<Record<string, string>>([
    { 'sec-purpose': 'prefetch' },
    { 'sec-purpose': 'prefetch;prerender' },
    { 'sec-purpose': 'Prefetch' },
    { purpose: 'prefetch' },
    { 'x-moz': 'prefetch' },
  ])('%o is', (pairs) => {
    expect(isSpeculative(headers(pairs))).toBe(true);
  });

  it.each<Record<string, string>>([{}, { 'sec-purpose': '' }, { 'sec-fetch-mode': 'navigate' }])(
    '%o is not',
    (pairs) => {
      expect(isSpeculative(headers(pairs))).toBe(false);
    },
  );
});

describe('isCookielessReturn', () => {
  const site = (value?: string) => (name: string) =>
    name === 'sec-fetch-site' ? value : undefined;

  it('is a page reached from ours that brings back no visitor cookie', () => {
    expect(isCookielessReturn(site('same-origin'), false)).toBe(true);
  });

  it.each<[string, string | undefined, boolean]>([
    ['a visitor cookie', 'same-origin', true],
    ['a link from another site', 'cross-site', false],
    ['a typed address or a bookmark', 'none', false],
    ['a browser that sends no Sec-Fetch-Site', undefined, false],
  ])('is not with %s', (_, value, hasVisitorCookie) => {
    expect(isCookielessReturn(site(value), hasVisitorCookie)).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { crossOriginReason } from '../../../worker/request/same-origin';
import { fakePortal, happyPortal, SIGNUP_BODY } from '../api/fake-portal';
import { anEvent, NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { signUp } from '../portal/portal-client';

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** What a route did with a request: took it, or refused it in its own words. */
interface Route {
  name: string;
  send(headers: Record<string, string>): Promise<Response>;
  /** The route acted: the portal was called, an event queued, a cookie set. */
  acted(): boolean;
  takenStatus: number;
  expectRefused(response: Response): Promise<void>;
}

function apiSignup(): Route {
  const portal = fakePortal(happyPortal);
  const fetchApp = freshApp({ portalFetch: portal.portalFetch });
  return {
    name: 'POST /api/signup',
    send: (headers) =>
      fetchApp('/api/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(SIGNUP_BODY),
      }),
    acted: () => portal.seen.length > 0,
    takenStatus: 201,
    async expectRefused(response) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ errors: { messages: [] }, code: 'cross_origin' });
    },
  };
}

function collector(): Route {
  const queue = recordingQueue();
  const fetchApp = freshApp({ now: () => NOW }, { EVENTS_QUEUE: queue.queue });
  return {
    name: 'POST /e',
    send: (headers) =>
      fetchApp('/e', {
        method: 'POST',
        // As sendBeacon posts a string.
        headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
        body: JSON.stringify({ events: [anEvent()] }),
      }),
    acted: () => queue.sent.length > 0,
    takenStatus: 200,
    async expectRefused(response) {
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: string }).error).toBe('cross_site');
    },
  };
}

function consent(): Route {
  const fetchApp = freshApp();
  let cookie = false;
  return {
    name: 'POST /consent',
    async send(headers) {
      const response = await fetchApp('/consent', {
        method: 'POST',
        headers,
        body: new URLSearchParams({ answer: 'granted' }),
      });
      cookie = response.headers.getSetCookie().some((line) => line.startsWith('gf_consent='));
      return response;
    },
    acted: () => cookie,
    takenStatus: 303,
    async expectRefused(response) {
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('Forbidden\n');
    },
  };
}

/** The login link's form, each time with a fresh one-time token of the embedded portal. */
function appLogin(): Route {
  const fetchApp = freshApp();
  let session = false;
  return {
    name: 'POST /app/login',
    async send(headers) {
      const { deeplinkToken } = await signUp();
      const response = await fetchApp('/app/login', {
        method: 'POST',
        headers,
        body: new URLSearchParams({ token: deeplinkToken }),
      });
      session = setCookies(response).has('gf_session');
      return response;
    },
    acted: () => session,
    takenStatus: 200,
    async expectRefused(response) {
      expect(response.status).toBe(403);
      expect(await response.text()).toBe('Forbidden\n');
    },
  };
}

const ROUTES = [apiSignup, collector, consent, appLogin];

describe.each(ROUTES.map((route) => [route().name, route] as const))(
  '%s follows the one same-origin rule',
  (_, route) => {
    it.each([
      ['neither Origin nor Sec-Fetch-Site (a script, not a page)', {}],
      [
        'another Origin, no Sec-Fetch-Site (an older browser on another site)',
        {
          origin: 'https://evil.test',
        },
      ],
      [
        'Sec-Fetch-Site: cross-site',
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
      ],
    ])('refuses %s, and does nothing', async (_, headers) => {
      const target = route();
      await target.expectRefused(await target.send(headers));
      expect(target.acted()).toBe(false);
    });

    it.each([
      ["the page's own Origin, no Sec-Fetch-Site (an older browser)", { origin: ORIGIN }],
      [
        'Sec-Fetch-Site: same-origin with our Origin (a current browser)',
        {
          'sec-fetch-site': 'same-origin',
          origin: ORIGIN,
        },
      ],
    ])('takes %s', async (_, headers) => {
      const target = route();
      expect((await target.send(headers)).status).toBe(target.takenStatus);
      expect(target.acted()).toBe(true);
    });
  },
);

describe('crossOriginReason, the rule itself', () => {
  const request = (headers: Record<string, string>) =>
    new Request(`${ORIGIN}/e`, { method: 'POST', headers });

  it("trusts the browser's Sec-Fetch-Site over an Origin: a page can set neither", () => {
    expect(crossOriginReason(request({ 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossOriginReason(request({ 'sec-fetch-site': 'same-site', origin: ORIGIN }))).toBe(
      'Sec-Fetch-Site: same-site',
    );
    expect(crossOriginReason(request({ 'sec-fetch-site': 'none', origin: ORIGIN }))).toBe(
      'Sec-Fetch-Site: none',
    );
  });

  it('names what was wrong, for the log line', () => {
    expect(crossOriginReason(request({}))).toBe('neither Sec-Fetch-Site nor Origin');
    expect(crossOriginReason(request({ origin: 'null' }))).toBe('Origin: null');
    expect(crossOriginReason(request({ origin: 'http://funnel.test' }))).toBe(
      'Origin: http://funnel.test',
    );
  });
});

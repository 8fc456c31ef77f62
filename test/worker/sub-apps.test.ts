import { describe, expect, it } from 'vitest';
import { freshApp } from './fetch-app';

/**
 * Each kind of request is a sub-app with only its own middleware (worker/sub-apps/): a path under
 * a sub-app's prefix that none of its routes answers gets the 404 page from that sub-app, and
 * never runs the pages' middleware, which would draw a route and variants and set the visitor's
 * funnel cookies on an answer that is no page of the funnel.
 */

const FUNNEL_COOKIES = ['gf_route', 'gf_variant', 'gf_x', 'gf_touch'];

function cookieNames(res: Response): string[] {
  return res.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf('=')));
}

describe('an unknown path under a sub-app', () => {
  it.each(['/e/x', '/vendor/x', '/api/no-such-call', '/hooks/subscription-events/x'])(
    '%s is a 404 that sets none of the funnel cookies',
    async (path) => {
      const res = await freshApp()(path);
      expect(res.status).toBe(404);
      expect(cookieNames(res).filter((name) => FUNNEL_COOKIES.includes(name))).toEqual([]);
    },
  );

  it('an unknown page outside every prefix is the pages 404, which takes the visit as a page does', async () => {
    // What the sub-apps above are spared: the pages' chain draws the visit's route.
    const res = await freshApp()('/no-such-screen');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(cookieNames(res)).toContain('gf_route');
  });

  it('a collector beacon never gets a uuid cookie, so a cookieless visitor keeps one identity', async () => {
    const res = await freshApp()('/e/x');
    expect(cookieNames(res)).not.toContain('userUuid');
  });
});

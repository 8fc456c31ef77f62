import fc from 'fast-check';
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { exceptPaths, pathMatcher } from '../../../worker/middleware/except-paths';

// The app's own patterns (worker/app.tsx): exact paths and `/x/*` prefixes.
const PATTERNS = [
  '/api/*',
  '/e',
  '/test-gateway/*',
  '/app/*',
  '/console',
  '/console/*',
  '/resume/*',
];

/** Hono's own reading of the patterns, as hono/combine's `except` matched them. */
function honoMatches(patterns: readonly string[], path: string): boolean {
  const router = new TrieRouter<boolean>();
  for (const pattern of patterns) router.add('ALL', pattern, true);
  return Boolean(router.match('ALL', path)?.[0]?.[0]?.[0]);
}

const segment = fc.constantFrom(
  'api',
  'e',
  'console',
  'app',
  'resume',
  'test-gateway',
  'apix',
  'x',
  '',
);
const path = fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join('/')}`);

describe('pathMatcher', () => {
  it('reads the patterns as Hono does', () => {
    const matches = pathMatcher(PATTERNS);
    fc.assert(
      fc.property(path, (p) => {
        expect(matches(p)).toBe(honoMatches(PATTERNS, p));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a prefix pattern as the path itself and what is under it, nothing beside', () => {
    const matches = pathMatcher(['/api/*', '/console']);
    expect(['/api', '/api/', '/api/x/y', '/console'].map(matches)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['/apix', '/API/x', '/console/', '/consolex', '/'].map(matches)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('exceptPaths', () => {
  function app() {
    const seen: string[] = [];
    const hono = new Hono();
    hono.use(
      exceptPaths(['/api/*', '/e'], async (c, next) => {
        seen.push(c.req.path);
        c.header('x-ran', 'yes');
        await next();
      }),
    );
    hono.get('*', (c) => c.text('page'));
    return { hono, seen };
  }

  it('runs the middleware on other paths and skips the excepted ones, which still answer', async () => {
    const { hono, seen } = app();
    const page = await hono.request('/one_pager?x=1');
    const api = await hono.request('/api/config');
    const beacon = await hono.request('/e');
    expect(page.headers.get('x-ran')).toBe('yes');
    expect([api.headers.get('x-ran'), beacon.headers.get('x-ran')]).toEqual([null, null]);
    expect(await api.text()).toBe('page');
    expect(seen).toEqual(['/one_pager']);
  });

  it('lets the middleware answer for the rest of the chain', async () => {
    const hono = new Hono();
    hono.use(exceptPaths('/api/*', (c) => Promise.resolve(c.text('stopped', 403))));
    hono.get('*', (c) => c.text('page'));
    const stopped = await hono.request('/signup');
    expect([stopped.status, await stopped.text()]).toEqual([403, 'stopped']);
    expect(await (await hono.request('/api/x')).text()).toBe('page');
  });
});

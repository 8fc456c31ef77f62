import { Hono } from 'hono';
import { afterEach, expect, it, vi } from 'vitest';
import { requestLog } from '../../../worker/middleware/request-log';
import type { AppEnv } from '../../../worker/request/envs';

afterEach(() => vi.restoreAllMocks());

function appWithLog() {
  let clock = 100;
  const app = new Hono<AppEnv>();
  app.use(requestLog({ now: () => (clock += 12.5) }));
  app.get('/screen', (c) => {
    c.get('logFields').screen = 'signup';
    return c.text('ok');
  });
  app.get('/fail', (c) => {
    c.get('logFields').error = 'portal_down';
    return c.text('bad', 502);
  });
  return app;
}

it('writes one JSON line per request with the fields ops read', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const res = await appWithLog().request('/screen?x=1', { headers: { 'cf-ray': 'ray-123' } });
  expect(res.headers.get('x-request-id')).toBe('ray-123');
  expect(log).toHaveBeenCalledTimes(1);
  const line = JSON.parse(String(log.mock.calls[0]![0]));
  expect(line).toMatchObject({
    id: 'ray-123',
    method: 'GET',
    path: '/screen',
    status: 200,
    ms: 12.5,
    screen: 'signup',
    error: null,
    country: null,
    variant: null,
    flow: null,
  });
  expect(Date.parse(line.ts)).not.toBeNaN();
});

it('carries the error code a handler reports, and a fresh id without cf-ray', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const res = await appWithLog().request('/fail');
  const line = JSON.parse(String(log.mock.calls[0]![0]));
  expect(line).toMatchObject({ status: 502, error: 'portal_down' });
  expect(line.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.get('x-request-id')).toBe(line.id);
});

it('marks speculative prefetches so they can be told apart from visits', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await appWithLog().request('/screen', { headers: { 'sec-purpose': 'prefetch' } });
  expect(JSON.parse(String(log.mock.calls[0]![0]))).toMatchObject({ prefetch: true });
});

import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { visitor } from '../../../worker/middleware/visitor';
import type { AppEnv } from '../../../worker/request/envs';

const app = new Hono<AppEnv>();
app.use(visitor());
app.get('/', (c) => c.text(c.get('visitorId')));

it('gives a new visitor a v4 uuid in a 365-day Secure, Lax cookie', async () => {
  const res = await app.request('/');
  const id = await res.text();
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(res.headers.get('set-cookie')).toBe(
    `userUuid=${id}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`,
  );
});

it('keeps the uuid from the cookie and sets no cookie', async () => {
  const id = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';
  const res = await app.request('/', { headers: { cookie: `userUuid=${id}` } });
  expect(await res.text()).toBe(id);
  expect(res.headers.get('set-cookie')).toBeNull();
});

it('replaces a cookie that is not a uuid', async () => {
  const res = await app.request('/', { headers: { cookie: 'userUuid=<script>' } });
  expect(await res.text()).not.toBe('<script>');
  expect(res.headers.get('set-cookie')).toMatch(/^userUuid=[0-9a-f-]{36};/);
});

import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import {
  CONSOLE_PICTURES_PATH,
  type PictureUploadAnswer,
} from '../../../shared/console-api/pictures';
import {
  ACCESS_TOKEN_HEADER,
  accessKeySets,
  LOCAL_AUTHOR,
} from '../../../worker/access/console-access';
import { DELETES_PER_AUTHOR } from '../../../worker/pictures/limits';
import { pngOf } from '../../fixtures/png';
import { accessClaims, NOW_MS, PRODUCTION, teamAndStranger } from '../console/access-tokens';
import { freshApp, productionApp } from '../fetch-app';
import { emptyPictures, spendLimit, storedKeys, upload } from './picture-fixtures';

/**
 * Deleting a picture from the console's library, through the development worker on the real R2,
 * KV and rate-limit objects: every object of it goes, unless the live content or the marketer's
 * draft shows it (refused, naming where), and no other site, stranger or flood can delete one.
 */

const fetchApp = freshApp({ now: () => Date.UTC(2026, 10, 26, 12) });
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

beforeEach(async () => {
  await emptyPictures();
  await env.FUNNEL_CONFIG.delete('content');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await env.FUNNEL_CONFIG.delete('content');
});

async function uploaded(): Promise<string> {
  const response = await upload(fetchApp, await pngOf(800, 500, [30, 90, 160]));
  return ((await response.json()) as PictureUploadAnswer).picture.id;
}

function remove(
  id: string,
  draft: unknown = { screens: {} },
  headers: Record<string, string> = SAME_ORIGIN,
) {
  return fetchApp(`${CONSOLE_PICTURES_PATH}/${id}`, {
    method: 'DELETE',
    headers,
    body: JSON.stringify({ draft }),
  });
}

const ALT = { en: 'A map' };
const showing = (id: string, variant?: string): ContentDocument => {
  const picture = { id, width: 800, height: 500, alt: ALT };
  return {
    screens: { one_pager: variant ? { variants: { [variant]: { picture } } } : { picture } },
  };
};

describe('deleting a picture', () => {
  it('deletes its original and every size made of it', async () => {
    const id = await uploaded();
    // A visitor's page asked for two more sizes: they are R2 objects too.
    for (const size of ['640.webp', '320.avif']) {
      expect((await fetchApp(`/pictures/${id}-${size}`)).status).toBe(200);
    }
    expect(await storedKeys()).toHaveLength(4);
    const response = await remove(id);
    expect([response.status, await response.json()]).toEqual([200, { ok: true, deleted: id }]);
    expect(await storedKeys()).toEqual([]);
    expect((await fetchApp(`/pictures/${id}-640.webp`)).status).toBe(404);
    const again = await remove(id);
    expect([again.status, await again.json()]).toMatchObject([404, { error: 'picture_not_found' }]);
  });

  it('is refused while the live content shows it, naming where; nothing is deleted', async () => {
    const id = await uploaded();
    await env.FUNNEL_CONFIG.put('content', JSON.stringify(showing(id)));
    const response = await remove(id);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      error: 'picture_in_use',
      message:
        'This picture is in use in the live content: screen one_pager. Choose another picture there (and publish) before deleting it.',
      uses: [{ in: 'live', path: 'screens.one_pager.picture' }],
    });
    expect(await storedKeys()).toHaveLength(2);
  });

  it('is refused while the draft shows it, in a variant', async () => {
    const id = await uploaded();
    const response = await remove(id, showing(id, 'b'));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      message: expect.stringContaining('in your draft: screen one_pager, variant b.'),
      uses: [{ in: 'draft', path: 'screens.one_pager.variants.b.picture' }],
    });
    expect(await storedKeys()).toHaveLength(2);
  });

  it('takes only a picture id and a JSON body', async () => {
    const id = await uploaded();
    for (const name of ['..%2Foriginals', id.toUpperCase(), `${id}0`]) {
      expect((await remove(name)).status).toBe(400);
    }
    const bare = await fetchApp(`${CONSOLE_PICTURES_PATH}/${id}`, {
      method: 'DELETE',
      headers: SAME_ORIGIN,
    });
    expect(bare.status).toBe(400);
    expect(await storedKeys()).toHaveLength(2);
  });
});

describe('a delete is refused, and nothing is deleted', () => {
  it('from another site, or as a form would send it', async () => {
    const id = await uploaded();
    const crossSite = await remove(id, {}, { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' });
    expect([crossSite.status, await crossSite.json()]).toEqual([
      403,
      { ok: false, error: 'cross_origin' },
    ]);
    const noHeaders = await remove(id, {}, { 'Content-Type': 'application/json' });
    expect(noHeaders.status).toBe(403);
    const form = await remove(id, {}, { ...SAME_ORIGIN, 'Content-Type': 'text/plain' });
    expect(form.status).toBe(415);
    expect(await storedKeys()).toHaveLength(2);
  });

  it('past the author’s hourly limit, with Retry-After', async () => {
    const id = await uploaded();
    const { name, limit, windowMs } = DELETES_PER_AUTHOR;
    await spendLimit(`${name}:${LOCAL_AUTHOR}`, limit, windowMs);
    const response = await remove(id);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ error: 'rate_limited' });
    expect(await storedKeys()).toHaveLength(2);
  });

  it('on the production worker without Access, and with a forged token', async () => {
    const id = await uploaded();
    const { team, stranger } = await teamAndStranger();
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    const production = productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      PRODUCTION,
    );
    const forged = await stranger.sign(accessClaims());
    const at = `${CONSOLE_PICTURES_PATH}/${id}`;
    const body = JSON.stringify({ draft: {} });
    for (const [headers, status] of [
      [SAME_ORIGIN, 401],
      [{ ...SAME_ORIGIN, [ACCESS_TOKEN_HEADER]: forged }, 403],
    ] as const) {
      expect((await production(at, { method: 'DELETE', headers, body })).status).toBe(status);
    }
    expect(await storedKeys()).toHaveLength(2);
    // The team's own token deletes it: the refusals above are Access's.
    const token = await team.sign(accessClaims());
    const opened = await production(at, {
      method: 'DELETE',
      headers: { ...SAME_ORIGIN, [ACCESS_TOKEN_HEADER]: token },
      body,
    });
    expect(opened.status).toBe(200);
    expect(await storedKeys()).toEqual([]);
  });
});

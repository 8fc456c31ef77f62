import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONSOLE_PICTURES_PATH,
  type PictureLibraryAnswer,
  type PictureUploadAnswer,
} from '../../../shared/console-api/pictures';
import { hex } from '../../../shared/hex';
import { PICTURE_MAX_BYTES } from '../../../shared/pictures';
import {
  ACCESS_TOKEN_HEADER,
  accessKeySets,
  LOCAL_AUTHOR,
} from '../../../worker/access/console-access';
import { UPLOADS_PER_AUTHOR } from '../../../worker/pictures/limits';
import { pngOf } from '../../fixtures/png';
import { accessClaims, NOW_MS, PRODUCTION, teamAndStranger } from '../console/access-tokens';
import { freshApp, productionApp } from '../fetch-app';
import {
  emptyPictures,
  encoded,
  spendLimit,
  storedKeys,
  UPLOAD_HEADERS,
  upload,
} from './picture-fixtures';

/**
 * The console's picture library through the development worker (the console open with the
 * local author) on the real R2, Images binding and rate-limit objects: what is taken, what is
 * refused and why, and that nothing refused is stored.
 */

const fetchApp = freshApp({ now: () => Date.UTC(2026, 10, 26, 12) });

beforeEach(async () => {
  await emptyPictures();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

describe('an upload', () => {
  it('keeps a PNG under its SHA-256 with the size read from it, and lists it', async () => {
    const png = await pngOf(400, 300);
    const response = await upload(fetchApp, png);
    expect(response.status).toBe(201);
    const { picture, created } = (await response.json()) as PictureUploadAnswer;
    const id = await sha256(png);
    expect({ created, ...picture }).toEqual({
      created: true,
      id,
      type: 'png',
      width: 400,
      height: 300,
      bytes: png.length,
      uploadedBy: LOCAL_AUTHOR,
      uploadedAt: '2026-11-26T12:00:00.000Z',
      thumbnail: `/pictures/${id}-320.jpg`,
    });
    // The original and the library's thumbnail, made at upload.
    expect(await storedKeys()).toEqual([`originals/${id}`, `sizes/${id}/320.jpg`]);
    const library = (await (await fetchApp(CONSOLE_PICTURES_PATH)).json()) as PictureLibraryAnswer;
    expect(library.pictures).toEqual([picture]);
  });

  it('takes a JPEG and a WebP by their bytes', async () => {
    for (const [format, type] of [
      ['image/jpeg', 'jpeg'],
      ['image/webp', 'webp'],
    ] as const) {
      const response = await upload(fetchApp, await encoded(format, 64, 48));
      expect(await response.json()).toMatchObject({ picture: { type, width: 64, height: 48 } });
    }
  });

  it('of the same file twice is one picture: the first upload kept, the second told', async () => {
    const png = await pngOf(40, 40);
    const first = (await (await upload(fetchApp, png)).json()) as PictureUploadAnswer;
    const again = await upload(fetchApp, png);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ ok: true, picture: first.picture, created: false });
    expect(await storedKeys()).toHaveLength(2);
  });
});

describe('an upload is refused, saying why, and nothing is stored', () => {
  const svg = new TextEncoder().encode(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
  );
  it.each([
    ['an SVG (with script)', async () => svg, 415, 'picture_svg', /SVG .* run script/],
    ['a text file', async () => new TextEncoder().encode('hello'), 415, 'picture_type', /JPEG/],
    ['a 15 px picture', () => pngOf(15, 100), 422, 'picture_dimensions', /16 to 6000/],
    ['a 6001 px picture', () => pngOf(6001, 16), 422, 'picture_dimensions', /16 to 6000/],
    [
      'a PNG cut after its header (the sniffer reads it, the decoder cannot)',
      async () => (await pngOf(100, 100)).slice(0, 60),
      422,
      'picture_malformed',
      /damaged/,
    ],
    [
      'a file over 5 MB',
      async () => {
        const big = new Uint8Array(PICTURE_MAX_BYTES + 1);
        big.set(await pngOf(20, 20));
        return big;
      },
      413,
      'picture_too_large',
      /5 MB/,
    ],
  ])('%s', async (_, make, status, error, message) => {
    const response = await upload(fetchApp, await make());
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe(error);
    expect(body.message).toMatch(message);
    expect(await storedKeys()).toEqual([]);
  });

  it('from another site, or as a form would send it', async () => {
    const png = await pngOf(20, 20);
    const crossSite = await upload(fetchApp, png, {
      ...UPLOAD_HEADERS,
      'Sec-Fetch-Site': 'cross-site',
    });
    expect([crossSite.status, await crossSite.json()]).toEqual([
      403,
      { ok: false, error: 'cross_origin' },
    ]);
    const noHeaders = await upload(fetchApp, png, { 'Content-Type': 'application/octet-stream' });
    expect(noHeaders.status).toBe(403);
    for (const type of ['multipart/form-data; boundary=x', 'text/plain', 'image/png']) {
      const form = await upload(fetchApp, png, { ...UPLOAD_HEADERS, 'Content-Type': type });
      expect(form.status).toBe(415);
    }
    expect(await storedKeys()).toEqual([]);
  });

  it('past the author’s hourly limit, with Retry-After', async () => {
    const { name, limit, windowMs } = UPLOADS_PER_AUTHOR;
    await spendLimit(`${name}:${LOCAL_AUTHOR}`, limit, windowMs);
    const response = await upload(fetchApp, await pngOf(20, 20));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({ error: 'rate_limited' });
    expect(await storedKeys()).toEqual([]);
  });

  it('on the production worker without Access, and with a forged token', async () => {
    const { team, stranger } = await teamAndStranger();
    const certs = (async () => Response.json({ keys: [team.jwk] })) as unknown as typeof fetch;
    const production = productionApp(
      { accessKeys: accessKeySets({ fetch: certs }), now: () => NOW_MS },
      PRODUCTION,
    );
    const png = await pngOf(20, 20);
    const forged = await stranger.sign(accessClaims());
    for (const [headers, status] of [
      [UPLOAD_HEADERS, 401],
      [{ ...UPLOAD_HEADERS, [ACCESS_TOKEN_HEADER]: forged }, 403],
    ] as const) {
      const post = await production(CONSOLE_PICTURES_PATH, { method: 'POST', headers, body: png });
      expect(post.status).toBe(status);
      const list = await production(CONSOLE_PICTURES_PATH, { headers });
      expect(list.status).toBe(status);
    }
    expect(await storedKeys()).toEqual([]);
    // The team's own token opens it: the refusals above are Access's.
    const token = await team.sign(accessClaims());
    const opened = await production(CONSOLE_PICTURES_PATH, {
      method: 'POST',
      headers: { ...UPLOAD_HEADERS, [ACCESS_TOKEN_HEADER]: token },
      body: png,
    });
    expect(opened.status).toBe(201);
    expect(await opened.json()).toMatchObject({ picture: { uploadedBy: 'ada@example.com' } });
  });
});

it('the library answers 503 where no bucket is bound', async () => {
  const unbound = freshApp({}, { PICTURES: undefined });
  const response = await unbound(CONSOLE_PICTURES_PATH);
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({ error: 'pictures_not_configured' });
  expect(env.PICTURES).toBeDefined();
});

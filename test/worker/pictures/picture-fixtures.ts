import { env } from 'cloudflare:workers';
import { CONSOLE_PICTURES_PATH } from '../../../shared/console-api/pictures';
import { pngOf } from '../../fixtures/png';
import type { freshApp } from '../fetch-app';

/** The console's own page uploading a file, as its library does. */
export const UPLOAD_HEADERS = {
  'Sec-Fetch-Site': 'same-origin',
  'Content-Type': 'application/octet-stream',
};

export function upload(
  fetchApp: ReturnType<typeof freshApp>,
  bytes: Uint8Array,
  headers: Record<string, string> = UPLOAD_HEADERS,
) {
  return fetchApp(CONSOLE_PICTURES_PATH, { method: 'POST', headers, body: new Uint8Array(bytes) });
}

/** A picture of another format, made from a PNG by the Images binding (sharp under miniflare). */
export async function encoded(
  format: 'image/jpeg' | 'image/webp',
  width: number,
  height: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const images = env.IMAGES;
  if (!images) throw new Error('the tests bind IMAGES');
  const png = await pngOf(width, height);
  const result = await images.input(new Blob([png]).stream()).output({ format });
  return new Uint8Array(await result.response().arrayBuffer());
}

/** Every object the PICTURES bucket holds, by key. */
export async function storedKeys(): Promise<string[]> {
  const listed = await env.PICTURES?.list();
  return (listed?.objects ?? []).map((object) => object.key).sort();
}

/** Empties the bucket, so each test sees only its own pictures. */
export async function emptyPictures(): Promise<void> {
  const keys = await storedKeys();
  if (keys.length > 0) await env.PICTURES?.delete(keys);
}

/** Uses up `count` hits of a limiter key, as earlier requests would have. */
export async function spendLimit(key: string, limit: number, windowMs: number, count = limit) {
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(key));
  for (let i = 0; i < count; i++) await stub.hit({ limit, windowMs });
}

import { Hono } from 'hono';
import { describeError, type LogFields, logError } from '../../shared/log';
import {
  PICTURE_MIME,
  type PictureFormat,
  parsePictureName,
  pictureWidths,
} from '../../shared/pictures';
import type { Bindings } from '../env';
import { addressSubject } from '../rate-limits/rate-limit-gate';
import type { BaseEnv } from '../request/envs';
import { findPicture, originalKey, sizeKey } from './library';
import { MAKES_PER_ADDRESS, refusedFor } from './limits';
import { makeSize, PictureUnreadable } from './sizes';

/**
 * The public pictures, mounted at PICTURES_PATH: `/pictures/<sha-256>-<width>.<avif|webp|jpg>`,
 * each size made once and kept in R2 (./sizes.ts), then kept by this data center's cache and
 * by browsers for a year: the name says the content, so it never changes (immutable). Only our
 * own pictures in their listed widths are served; any other name is a 404 that reads nothing
 * but, past a malformed name, one R2 lookup, and that only within an address's limit.
 */

/** What a picture's plain answers need of the handler's `c`: its text answer. */
interface PlainAnswer {
  text(text: string, status: 404 | 429 | 503, headers: Record<string, string>): Response;
}

/** What making a size knows of its request: the bindings, the address, the log, the answer. */
interface SizeRequest {
  env: Bindings;
  clientIp: string | undefined;
  log: LogFields;
  answer: PlainAnswer;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

export function pictureServeRoutes() {
  const app = new Hono<BaseEnv>();
  app.get('/:name', async (c) => {
    const parsed = parsePictureName(c.req.param('name'));
    const bucket = c.env.PICTURES;
    if (!parsed || !bucket) return notFound(c);
    // One cache entry per picture, whatever query a request adds.
    const cacheKey = `${new URL(c.req.url).origin}${c.req.path}`;
    const cached = await fromCache(cacheKey);
    // A copy: the cache's answer has immutable headers, which the security headers would set.
    if (cached) return new Response(cached.body, cached);
    const kept = await bucket.get(sizeKey(parsed.id, parsed.width, parsed.format));
    const answer = kept
      ? pictureAnswer(kept.body, parsed.format)
      : await madeOnce(
          {
            env: c.env,
            clientIp: c.req.header('cf-connecting-ip'),
            log: c.get('logFields'),
            answer: c,
          },
          bucket,
          parsed,
        );
    if (answer.status === 200) {
      const [forCache, forVisitor] = answer.body?.tee() ?? [null, null];
      c.executionCtx.waitUntil(toCache(cacheKey, new Response(forCache, answer)));
      return new Response(forVisitor, answer);
    }
    return answer;
  });
  // Any other path under /pictures (a traversal, a folder, another method) is no picture either.
  app.all('*', (c) => notFound(c));
  return app;
}

/** Plain and small: an image URL, not a page; and never cached, a picture may be uploaded next. */
function notFound(c: PlainAnswer): Response {
  return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
}

function pictureAnswer(body: BodyInit, format: PictureFormat): Response {
  return new Response(body, {
    headers: {
      'content-type': PICTURE_MIME[format],
      'cache-control': IMMUTABLE,
      'x-content-type-options': 'nosniff',
    },
  });
}

/**
 * A size not made yet, or a name that is not ours: within the address's limit, the original's
 * record says which; a listed width of a picture we have is made now, kept, and answered.
 */
async function madeOnce(
  request: SizeRequest,
  bucket: R2Bucket,
  { id, width, format }: { id: string; width: number; format: PictureFormat },
): Promise<Response> {
  const { env, answer } = request;
  const address = addressSubject(request.clientIp);
  const wait = await refusedFor(env.RATE_LIMITER, MAKES_PER_ADDRESS, address);
  if (wait !== null) {
    request.log.error = 'rate_limited';
    return answer.text('Too many requests', 429, { 'Retry-After': String(wait) });
  }
  const record = await findPicture(bucket, id);
  if (!record || !pictureWidths(record.width).includes(width) || !env.IMAGES) {
    return notFound(answer);
  }
  const original = await bucket.get(originalKey(id));
  if (!original) return notFound(answer);
  try {
    const bytes = await makeSize(
      env.IMAGES,
      bucket,
      { id, original: original.body },
      width,
      format,
    );
    return pictureAnswer(bytes, format);
  } catch (error) {
    if (!(error instanceof PictureUnreadable)) throw error;
    logError('picture_size_failed', { picture: id, width, format, detail: error.message });
    return answer.text('Picture unavailable', 503, { 'Cache-Control': 'no-store' });
  }
}

async function fromCache(key: string): Promise<Response | null> {
  try {
    return (await caches.default.match(key)) ?? null;
  } catch (error) {
    logError('picture_cache_failed', { detail: describeError(error) });
    return null;
  }
}

async function toCache(key: string, answer: Response): Promise<void> {
  try {
    await caches.default.put(key, answer);
  } catch (error) {
    logError('picture_cache_failed', { detail: describeError(error) });
  }
}

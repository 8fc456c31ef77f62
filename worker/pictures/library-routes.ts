import { type Handler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  PICTURE_UPLOAD_TYPE,
  type PictureLibraryAnswer,
  type PictureRefusal,
  type PictureUploadAnswer,
  type PictureUse,
} from '../../shared/console-api/pictures';
import { hex } from '../../shared/hex';
import { logWarning } from '../../shared/log';
import {
  PICTURE_MAX_BYTES,
  PICTURE_MAX_SIDE,
  PICTURE_MIN_SIDE,
  pictureWidths,
} from '../../shared/pictures';
import type { Answer } from '../http/answer';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';
import { crossOriginReason } from '../request/same-origin';
import { deleteFromLibrary } from './delete-route';
import { findPicture, listPictures, storePicture } from './library';
import { refusedFor, UPLOADS_PER_AUTHOR } from './limits';
import { makeSize, PictureUnreadable } from './sizes';
import { sniffPicture } from './sniff';

/**
 * The console's picture library, mounted at CONSOLE_PICTURES_PATH behind the console's Access
 * check (worker/console/routes.ts): GET lists it, POST uploads one file, its bytes the body,
 * DELETE /<id> deletes one no content shows (./delete-route.ts).
 * Beside the console's JSON calls rather than among them, as its body is a file of up to 5 MB,
 * not JSON; it keeps their rule against other sites on its own: the same-origin check, and a
 * content type (`application/octet-stream`) no cross-site form can send.
 */

const MB = 1024 * 1024;

/** What the marketer is told, per refusal: what is wrong and what to do. */
const MESSAGES: Record<PictureRefusal, string> = {
  picture_type: 'This file is not a picture we take: upload a JPEG, PNG, WebP, AVIF or GIF.',
  picture_svg:
    'SVG is refused: it is a document that can run script on our pages. Export a PNG or WebP.',
  picture_malformed: 'This picture is damaged or cut short: export it again and upload that.',
  picture_too_large: `A picture may be at most ${PICTURE_MAX_BYTES / MB} MB: export it smaller.`,
  picture_dimensions: `Each side must be ${PICTURE_MIN_SIDE} to ${PICTURE_MAX_SIDE} pixels.`,
  picture_in_use: 'This picture is in use: choose another picture there before deleting it.',
  picture_not_found: 'This picture is no longer in the library: it was deleted.',
  rate_limited: 'Too many changes to the library for now: try again later.',
  pictures_not_configured: 'The picture library is not set up on this worker (no PICTURES bucket).',
};

function refuse(
  c: Answer,
  status: ContentfulStatusCode,
  error: PictureRefusal,
  extra: { message?: string; uses?: PictureUse[] } = {},
): Response {
  const fields = c.get('logFields');
  if (fields) fields.error = error;
  c.header('Cache-Control', 'no-store');
  return c.json({ ok: false, error, message: MESSAGES[error], ...extra }, status);
}

export function pictureLibraryRoutes(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const app = new Hono<ConsoleEnv>();
  app.get('/', async (c) => {
    if (!c.env.PICTURES) return refuse(c, 503, 'pictures_not_configured');
    const answer: PictureLibraryAnswer = { ok: true, pictures: await listPictures(c.env.PICTURES) };
    return c.json(answer);
  });
  app.post(
    '/',
    async function fromConsolePage(c, next) {
      if (crossOriginReason(c.req.raw) !== null) return consoleError(c, 403, 'cross_origin');
      const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (type !== PICTURE_UPLOAD_TYPE) return consoleError(c, 415, 'bad_request');
      await next();
    },
    bodyLimit({ maxSize: PICTURE_MAX_BYTES, onError: (c) => refuse(c, 413, 'picture_too_large') }),
    upload(now),
  );
  app.delete('/:id', deleteFromLibrary(refuse));
  return app;
}

function upload(now: () => number): Handler<ConsoleEnv> {
  return async function uploadHandler(c) {
    const bucket = c.env.PICTURES;
    const images = c.env.IMAGES;
    if (!bucket || !images) return refuse(c, 503, 'pictures_not_configured');
    const author = c.get('consoleAuthor');
    const wait = await refusedFor(c.env.RATE_LIMITER, UPLOADS_PER_AUTHOR, author);
    if (wait !== null) {
      c.header('Retry-After', String(wait));
      return refuse(c, 429, 'rate_limited');
    }
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const sniffed = sniffPicture(bytes);
    if (!sniffed.ok) {
      const [status, refusal] = SNIFF_REFUSALS[sniffed.reason];
      return refuse(c, status, refusal);
    }
    const sides = [sniffed.width, sniffed.height];
    if (sides.some((side) => side < PICTURE_MIN_SIDE || side > PICTURE_MAX_SIDE)) {
      return refuse(c, 422, 'picture_dimensions');
    }
    const id = hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
    c.get('logFields').picture = id;
    const known = await findPicture(bucket, id);
    if (known)
      return c.json({ ok: true, picture: known, created: false } satisfies PictureUploadAnswer);
    // The library's thumbnail, made now: it also proves the whole file decodes (a file cut after
    // its header passes the sniffer, not the decoder).
    const original = new Blob([bytes]).stream();
    try {
      await makeSize(
        images,
        bucket,
        { id, original },
        pictureWidths(sniffed.width)[0] ?? sniffed.width,
        'jpg',
      );
    } catch (error) {
      if (!(error instanceof PictureUnreadable)) throw error;
      logWarning('picture_undecodable', { picture: id, detail: error.message });
      return refuse(c, 422, 'picture_malformed');
    }
    const { record, created } = await storePicture(bucket, {
      id,
      bytes,
      type: sniffed.type,
      width: sniffed.width,
      height: sniffed.height,
      author,
      at: new Date(now()),
    });
    const answer: PictureUploadAnswer = { ok: true, picture: record, created };
    return c.json(answer, created ? 201 : 200);
  };
}

const SNIFF_REFUSALS = {
  svg: [415, 'picture_svg'],
  unknown: [415, 'picture_type'],
  malformed: [422, 'picture_malformed'],
} as const satisfies Record<string, [ContentfulStatusCode, PictureRefusal]>;

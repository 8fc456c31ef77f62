import type { Handler } from 'hono';
import type {
  PictureDeleteAnswer,
  PictureRefusal,
  PictureUse,
} from '../../shared/console-api/pictures';
import { describeError, logError } from '../../shared/log';
import { PICTURES_PATH } from '../../shared/pictures';
import { CONFIG_KEYS } from '../config/load';
import type { Answer } from '../http/answer';
import { isJsonRequest, readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';
import { crossOriginReason } from '../request/same-origin';
import { deletePicture, findPicture } from './library';
import { DELETES_PER_AUTHOR, refusedFor } from './limits';
import { pictureUses } from './picture-uses';

/**
 * `DELETE /console/pictures/<id>`, its body the console's draft content as JSON (`{ draft }`):
 * deletes the picture's original and every size made of it, unless the live content or that
 * draft shows it, which the refusal names by path. Behind the console's Access check like the
 * upload, with its same-origin check and a JSON body no cross-site form can send, and counted
 * per author: a stolen session cannot empty the library faster than a marketer tidies it.
 */

/** A picture's id: the SHA-256 of its file, in lower-case hex. */
const PICTURE_ID = /^[0-9a-f]{64}$/;

/** The refusals a delete answers with, beside the upload's (./library-routes.ts). */
export type Refuse = (
  c: Answer,
  status: 404 | 409 | 429 | 503,
  error: PictureRefusal,
  extra?: { message?: string; uses?: PictureUse[] },
) => Response;

export function deleteFromLibrary(refuse: Refuse): Handler<ConsoleEnv> {
  return async function deleteFromLibraryHandler(c) {
    if (crossOriginReason(c.req.raw) !== null) return consoleError(c, 403, 'cross_origin');
    if (!isJsonRequest(c.req.raw)) return consoleError(c, 415, 'bad_request');
    const body = await readJsonBody(c.req.raw);
    const id = c.req.param('id') ?? '';
    if (!PICTURE_ID.test(id) || body === null || typeof body !== 'object') {
      return consoleError(c, 400, 'bad_request');
    }
    const bucket = c.env.PICTURES;
    if (!bucket) return refuse(c, 503, 'pictures_not_configured');
    const wait = await refusedFor(c.env.RATE_LIMITER, DELETES_PER_AUTHOR, c.get('consoleAuthor'));
    if (wait !== null) {
      c.header('Retry-After', String(wait));
      return refuse(c, 429, 'rate_limited');
    }
    if (!(await findPicture(bucket, id))) return refuse(c, 404, 'picture_not_found');
    const live = await liveContent(c.env.FUNNEL_CONFIG);
    const uses: PictureUse[] = [
      ...pictureUses(live, id).map((path) => ({ in: 'live' as const, path })),
      ...pictureUses((body as { draft?: unknown }).draft, id).map((path) => ({
        in: 'draft' as const,
        path,
      })),
    ];
    if (uses.length > 0) return refuse(c, 409, 'picture_in_use', { message: inUse(uses), uses });
    c.get('logFields').picture = id;
    const sizes = await deletePicture(bucket, id);
    await forgetCached(new URL(c.req.url).origin, id, sizes);
    const answer: PictureDeleteAnswer = { ok: true, deleted: id };
    return c.json(answer);
  };
}

/**
 * This data center's cached copies of the deleted sizes (keyed as ./serve-routes.ts keys them).
 * Other data centers' and browsers' copies age out: no page links them any more.
 */
async function forgetCached(origin: string, id: string, sizes: readonly string[]): Promise<void> {
  try {
    await Promise.all(
      sizes.map((size) => caches.default.delete(`${origin}${PICTURES_PATH}/${id}-${size}`)),
    );
  } catch (error) {
    logError('picture_cache_failed', { detail: describeError(error) });
  }
}

/** The live content as JSON; what KV holds unreadable shows no picture (as the pages read it). */
async function liveContent(kv: KVNamespace): Promise<unknown> {
  try {
    return JSON.parse((await kv.get(CONFIG_KEYS.content, 'text')) ?? 'null');
  } catch {
    return null;
  }
}

/**
 * A use in the marketer's words: `screens.one_pager.variants.b.picture` → screen one_pager, variant
 * b.
 */
function placeOf(use: PictureUse): string {
  const content = use.in === 'live' ? 'the live content' : 'your draft';
  const screen = /^screens\.([^.]+)(?:\.variants\.([^.]+))?/.exec(use.path);
  if (!screen) return `${content} (${use.path})`;
  return `${content}: screen ${screen[1]}${screen[2] ? `, variant ${screen[2]}` : ''}`;
}

/** Where the picture is shown, and what to change before deleting it. */
function inUse(uses: readonly PictureUse[]): string {
  const where = [...new Set(uses.map(placeOf))].join('; ');
  return `This picture is in use in ${where}. Choose another picture there (and publish) before deleting it.`;
}

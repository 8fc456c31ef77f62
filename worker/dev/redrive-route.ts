import { redriveDeadLetters } from '../collector/redrive';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';

/**
 * `POST /__dev/dead-letters/redrive`, for `npm run events -- dead-letters redrive` under
 * `npm start`: the command marks rows in the local EVENTS_DB, but only the running worker has the
 * local queue, and `wrangler dev` runs no cron. Sends what is marked, now (worker/collector/
 * redrive.ts), and answers `{ "sent": n }`. Only in the development entry (worker/dev.ts), and
 * only when ENVIRONMENT is exactly 'development'; null for any other path.
 */
export const REDRIVE_PATH = '/__dev/dead-letters/redrive';

export async function redriveRoute(request: Request, env: Bindings): Promise<Response | null> {
  if (new URL(request.url).pathname !== REDRIVE_PATH) return null;
  if (!isDevelopment(env) || request.method !== 'POST') {
    return new Response('Not found', { status: 404 });
  }
  const sent = await redriveDeadLetters(env.EVENTS_DB, env.EVENTS_QUEUE, Date.now());
  return Response.json({ sent });
}

import type { Bindings } from '../env';
import { isDevelopment } from '../environment';

/**
 * `POST /__dev/fresh-app`: the development entry (worker/dev.ts) builds its app again, so what an
 * isolate keeps between requests (the last good config and translations, the Google key cache)
 * is forgotten as a new isolate would have it. The browser tests share one workerd among the
 * files of a test process and empty its storage between them (scripts/built-worker.ts); without
 * this, a file would still be served the config an earlier file published and deleted. Only
 * when ENVIRONMENT is exactly 'development'; false for any other path.
 */
export const FRESH_APP_PATH = '/__dev/fresh-app';

export function isFreshAppRequest(request: Request, env: Bindings): boolean {
  return (
    new URL(request.url).pathname === FRESH_APP_PATH &&
    request.method === 'POST' &&
    isDevelopment(env)
  );
}

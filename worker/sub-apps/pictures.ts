import type { Hono } from 'hono';
import { pictureServeRoutes } from '../pictures/serve-routes';
import type { BaseEnv } from '../request/envs';

/**
 * The library's pictures, `/pictures/<sha256>-<width>.<avif|webp|jpg>` (worker/pictures/): public
 * files named by their content, cached for a year, so no middleware: no visitor, no page, nothing
 * counted. Its routes end with their own plain 404 for any other path.
 */
export function picturesApp(): Hono<BaseEnv> {
  return pictureServeRoutes();
}

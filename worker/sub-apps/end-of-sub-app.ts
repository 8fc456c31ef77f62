import type { Handler } from 'hono';

/**
 * The last route of a sub-app mounted under a prefix: a path there that none of its routes
 * answers gets the worker's 404 page, and never reaches the pages' middleware after it.
 */
export const endOfSubApp: Handler = function notFoundInSubApp(c) {
  return c.notFound();
};

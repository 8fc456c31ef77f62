import type { Env, MiddlewareHandler } from 'hono';

/**
 * Whether a path is one of `patterns`: `/console` is that path alone, `/api/*` is `/api` and
 * everything under it, as Hono's router reads them.
 */
export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) prefixes.push(pattern.slice(0, -2));
    else exact.add(pattern);
  }
  return (path) =>
    exact.has(path) || prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * `middleware` on every path but `patterns`. What hono/combine's `except` does for path patterns,
 * without its router match and composed chain on every request: six of them were about 8% of the
 * worker's CPU for a landing (docs/performance.md, "A page's CPU on the server").
 */
export function exceptPaths<E extends Env>(
  patterns: string | readonly string[],
  middleware: MiddlewareHandler<E>,
): MiddlewareHandler<E> {
  const skipped = pathMatcher(typeof patterns === 'string' ? [patterns] : patterns);
  return async function exceptPaths(c, next) {
    if (skipped(c.req.path)) {
      await next();
      return;
    }
    return middleware(c, next);
  };
}

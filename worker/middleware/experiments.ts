import type { MiddlewareHandler } from 'hono';
import { placementOf } from '../experiments/assignment/assign';
import type { RandomSource } from '../funnel/flow';
import type { ExperimentsMiddlewareEnv } from '../request/envs';
import { clearUnreadPins, decodeArms } from '../request/visit-facts';

/**
 * Places the visitor in the experiments and sets the funnel they walk (worker/request/
 * visit-facts.ts decodeArms); once the page is answered, clears the pin cookies it could not read.
 */
export function experiments(
  options: { random?: RandomSource; now?: () => number } = {},
): MiddlewareHandler<ExperimentsMiddlewareEnv> {
  const placement = placementOf(options.random);
  const now = options.now ?? Date.now;
  return async function experimentsMiddleware(c, next) {
    const unread = await decodeArms(c, placement, now);
    await next();
    if (unread.length > 0) clearUnreadPins(c, unread);
  };
}

import type { MiddlewareHandler } from 'hono';
import type { AccessCheck } from '../access/console-access';
import type { ConfigSource } from '../config/load';
import { placementOf } from '../experiments/assignment/assign';
import type { RandomSource } from '../funnel/flow';
import type { ApiEnv } from '../request/envs';
import { callRequestOf } from '../request/visit';
import {
  clearUnreadPins,
  decodeArms,
  decodeConfig,
  decodeCountry,
  decodePreview,
  decodeRoute,
  decodeVisitor,
} from '../request/visit-facts';

/**
 * The browser's API's visit (worker/sub-apps/browser-api.ts), decoded in one pass: a mutating call
 * from elsewhere refused first (`refuseForeign`, before anything is read or kept for it), then the
 * visitor, the call's own facts (worker/request/visit.ts callRequestOf: its session and address),
 * the config, the preview, the country, the route and the arms, by the same readers the pages'
 * middleware run one at a time (worker/request/visit-facts.ts). The config is read before the
 * preview and the country, as neither needs the other and a call's prices follow it. Each room
 * below is entered once, in that order (`npm run walk`).
 */
export function browserVisit(
  deps: {
    configSource: ConfigSource;
    access: AccessCheck;
    now?: () => number;
    random?: RandomSource;
  },
  refuseForeign: MiddlewareHandler<ApiEnv>,
): MiddlewareHandler<ApiEnv> {
  const placement = placementOf(deps.random);
  const now = deps.now ?? Date.now;
  return async function browserVisitMiddleware(c, next) {
    return refuseForeign(c, async () => {
      decodeVisitor(c);
      callRequestOf(c);
      await decodeConfig(c, deps.configSource);
      await decodePreview(c, deps.access);
      await decodeCountry(c);
      await decodeRoute(c, now());
      const unread = await decodeArms(c, placement, now);
      await next();
      if (unread.length > 0) clearUnreadPins(c, unread);
    });
  };
}

import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { describeError, logError } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import type { AppEnv } from '../env';
import { knownBotReason } from '../experiments/bots';
import { experimentStores } from '../experiments/experiment-stores';
import { exposureVerdict, isCookielessReturn, isSpeculative } from '../experiments/exposure-rules';
import { recordBotExposure, recordExposure } from '../experiments/exposure-store';
import { VISITOR_COOKIE, visitorIdOf } from './visitor';

/**
 * Records, from the server, that a visitor was exposed to the split test (README, "Experiment
 * results: what is counted"): on the funnel screen where their variant is drawn, in the config's
 * current phase, once per visitor, with their route and their visit's source. The browser has no
 * say in it, so blockers, tabs closed early and forged beacons cannot move the denominator.
 * Known bots are counted apart. Written after the answer, off the visitor's path: a failed write
 * is an error line (`exposure_failed`), never a failed page.
 */
export function exposure(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function exposureMiddleware(c, next) {
    await next();
    const variant = c.get('variant');
    // Most requests carry the variant from the cookie: nothing to decide.
    if (!variant?.isNew) return;
    const bot = knownBotReason(c.req.header('user-agent'), c.req.raw.cf);
    const verdict = exposureVerdict({
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      freshDraw: variant.isNew,
      preview: c.get('preview') !== undefined,
      skipSplit: c.req.query('skip_split') === 'true',
      speculative: isSpeculative((name) => c.req.header(name)),
      cookielessReturn: isCookielessReturn(
        (name) => c.req.header(name),
        visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null,
      ),
      bot,
    });
    if (verdict === null) return;
    const { split, version } = c.get('config');
    const arm = { phase: split.phase ?? 1, variant: variant.key };
    const fields = c.get('logFields');
    fields.exposure = verdict;
    if (bot) fields.bot = bot;
    const stores = experimentStores(c.env);
    const visitorId = c.get('visitorId');
    const write =
      verdict === 'exposed'
        ? recordExposure(
            stores,
            {
              ...arm,
              visitorId,
              configVersion: version,
              at: now(),
              route: c.get('route')?.id ?? null,
              source: c.get('firstTouch')?.source ?? null,
            },
            { returning: visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null },
          )
        : recordBotExposure(stores, visitorId, arm);
    afterAnswer(
      c,
      write.catch((error: unknown) =>
        logError('exposure_failed', {
          id: c.get('requestId'),
          phase: arm.phase,
          variant: arm.variant,
          detail: describeError(error),
        }),
      ),
    );
  };
}

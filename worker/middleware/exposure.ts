import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { describeError, logError } from '../../shared/log';
import { afterAnswer } from '../after-answer';
import type { AppEnv } from '../env';
import { knownBotReason } from '../experiments/bots';
import type { FirstVisit } from '../experiments/experiment-statements';
import { experimentStores } from '../experiments/experiment-stores';
import {
  exposureVerdict,
  isCookielessReturn,
  isFirstVisit,
  isSpeculative,
} from '../experiments/exposure-rules';
import { recordBotExposure, recordExposure, recordFirstVisit } from '../experiments/exposure-store';
import { VISITOR_COOKIE, visitorIdOf } from './visitor';

/**
 * Records, from the server, that a visitor was exposed to the split test (README, "Experiment
 * results: what is counted"): on the funnel screen where their variant is drawn, in the config's
 * current phase, once per visitor, with their route and their visit's source. The browser has no
 * say in it, so blockers, tabs closed early and forged beacons cannot move the denominator.
 * Known bots are counted apart. A new visitor's first visit on the route chosen for them is
 * counted here too (route_days, isFirstVisit), in the same request to their shard as their
 * exposure when they have one. Written after the answer, off the visitor's path: a failed write
 * is an error line (`exposure_failed`), never a failed page.
 */
export function exposure(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function exposureMiddleware(c, next) {
    await next();
    const variant = c.get('variant');
    const drawn = variant?.isNew ? variant : null;
    const routeChosen = c.get('routeChosen') === true;
    // Most requests carry the variant and the route from their cookies: nothing to decide.
    if (drawn === null && !routeChosen) return;
    const header = (name: string) => c.req.header(name);
    const returning = visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null;
    const bot = knownBotReason(c.req.header('user-agent'), c.req.raw.cf);
    const answered = {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      preview: c.get('preview') !== undefined,
      speculative: isSpeculative(header),
      cookielessReturn: isCookielessReturn(header, returning),
      bot,
    };
    const verdict = drawn
      ? exposureVerdict({
          ...answered,
          freshDraw: true,
          skipSplit: c.req.query('skip_split') === 'true',
        })
      : null;
    const visitorId = c.get('visitorId');
    const route = c.get('route')?.id ?? null;
    const at = now();
    const firstVisit: FirstVisit | undefined =
      route !== null && isFirstVisit({ ...answered, routeChosen, returning })
        ? { visitorId, route, at }
        : undefined;
    if (verdict === null && firstVisit === undefined) return;

    const fields = c.get('logFields');
    if (firstVisit) fields.first_visit = true;
    const stores = experimentStores(c.env);
    if (verdict === null || drawn === null) {
      afterAnswer(c, logFailure(c, recordFirstVisit(stores, firstVisit), { route }));
      return;
    }
    const { split, version } = c.get('config');
    const arm = { phase: split.phase ?? 1, variant: drawn.key };
    fields.exposure = verdict;
    if (bot) fields.bot = bot;
    const source = c.get('firstTouch')?.source ?? null;
    const write =
      verdict === 'exposed'
        ? recordExposure(
            stores,
            { ...arm, visitorId, configVersion: version, at, route, source },
            { returning, firstVisit },
          )
        : recordBotExposure(stores, visitorId, arm);
    afterAnswer(c, logFailure(c, write, { phase: arm.phase, variant: arm.variant }));
  };
}

/** The write, with its failure logged as `exposure_failed` rather than thrown. */
function logFailure(
  c: Context<AppEnv>,
  write: Promise<void>,
  fields: Record<string, string | number | null>,
): Promise<void> {
  return write.catch((error: unknown) =>
    logError('exposure_failed', {
      id: c.get('requestId'),
      ...fields,
      detail: describeError(error),
    }),
  );
}

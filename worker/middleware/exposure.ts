import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { describeError, logError } from '../../shared/log';
import { type BotReason, knownBotReason } from '../experiments/assignment/bots';
import type { ExperimentAssignment } from '../experiments/config/evaluate';
import { exposureWithinBudget } from '../experiments/exposure/exposure-budget';
import {
  exposureVerdict,
  isFirstVisit,
  isSpeculative,
} from '../experiments/exposure/exposure-rules';
import {
  recordFirstVisit,
  recordLeftOutExposures,
  recordVisitorExposures,
} from '../experiments/exposure/exposure-store';
import type { HoldoutExposure } from '../experiments/holdout/holdout';
import { routeRampExposures } from '../experiments/ramps/route-ramp';
import type { ExperimentArm } from '../experiments/store/every-experiment-statements';
import { experimentStores } from '../experiments/store/experiment-stores';
import type { FirstVisit } from '../experiments/store/split-statements';
import { afterAnswer } from '../request/after-answer';
import {
  isCookielessReturn,
  signedCookiesOf,
  VISITOR_COOKIE,
  visitorIdOf,
  writePins,
} from '../request/cookies';
import type { BaseVariables, ConfigVariables, EnvOf, Variables } from '../request/envs';
import { exposureSegments } from '../request/exposure-segments';
import { keptAnswers, segmentChoices } from '../request/kept-answers';
import { exposedHere } from '../request/visit';
import type { FirstTouch } from '../routing/first-touch';

/**
 * What the exposure middleware may rely on: it runs in every sub-app with a funnel config (pages,
 * the API, the resume links), and only the pages' and the API's have experiments and a route.
 */
type ExposureEnv = EnvOf<
  BaseVariables & ConfigVariables & Partial<Omit<Variables, keyof BaseVariables | 'config'>>
>;

/**
 * Records, from the server, which experiments a page exposed the visitor to (docs/statistics.md,
 * "What is counted"): each experiment they are assigned to but not pinned
 * to yet, once the page served is at or after its trigger (exposedAt), in the experiment's
 * current phase, with their route, their visit's source and the other segments as they are now.
 * The visitor is pinned to those variants in the same answer (`gf_x`, `gf_variant`), so each is
 * counted once; all of them, with the segments captured at exposure (exposure-segments.ts), go
 * to the visitor's shard in one request, pending: they count once the page's own script has sent
 * back the page's ticket (worker/collector/exposure-confirmation-route.ts), so ids minted by a
 * script that only loads pages count in no arm. The browser chooses neither the experiments nor
 * the arms: a forged beacon confirms only what the server wrote. Known bots are counted apart. A new visitor's first visit on the
 * route chosen for them is counted here too (route_days, isFirstVisit), in the same request to
 * their shard as their exposures, and so is a visitor's exposure to the holdout, on the first
 * page that could expose them (worker/experiments/holdout/holdout.ts), and a new visitor's arm
 * of each ramped route that matched them, on the page where their route is chosen
 * (worker/experiments/ramps/route-ramp.ts). The quiz choices the visitor has given so far go
 * with their exposures, known at exposure, for the results' segments by an answer
 * (worker/experiments/store/answer-statements.ts). Each address has a day's budget of exposures
 * (worker/experiments/exposure/exposure-budget.ts): past it, a page's draws are counted apart,
 * as a known bot's are, so ids minted from one address cannot hold a ramp. Written after the
 * answer, off the visitor's path: a failed write is an error line (`exposure_failed`), never a
 * failed page.
 */
export function exposure(options: { now?: () => number } = {}): MiddlewareHandler<ExposureEnv> {
  const now = options.now ?? Date.now;
  return async function exposureMiddleware(c, next) {
    await next();
    const visitor = c.get('experiments');
    const routeChosen = c.get('routeChosen') === true;
    const holdout = visitor?.holdout ?? null;
    // A ramped route's arms are drawn where the route is chosen, and exposed on that page.
    const routeArms = routeChosen ? (c.get('routeRamps') ?? []) : [];
    const waiting =
      holdout !== null ||
      routeArms.length > 0 ||
      visitor?.assignments.some((assignment) => assignment.state === 'assigned');
    // Set wherever the experiments or the route ran, as both need the visitor.
    const visitorId = c.get('visitorId');
    // Most requests carry their pins and route in cookies, or are no page: nothing to decide.
    if ((!waiting && !routeChosen) || visitorId === undefined) return;
    const returning = visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null;
    const answered = answeredOf(c, returning);
    const { bot } = answered;
    const verdict =
      visitor && waiting && visitor.exposable
        ? exposureVerdict({ ...answered, skipSplit: c.req.query('skip_split') === 'true' })
        : null;
    const exposed =
      !visitor || verdict === null ? [] : exposedHere(c.get('config'), c.req.path, visitor);
    // The holdout's groups are exposed on any page that could expose (worker/experiments/holdout/holdout.ts).
    const held = verdict === null ? null : holdout;
    const ramped = verdict === null ? [] : routeRampExposures(routeArms);
    const route = c.get('route')?.id ?? null;
    const at = now();
    const firstVisit: FirstVisit | undefined =
      route !== null && isFirstVisit({ ...answered, routeChosen, returning })
        ? { visitorId, route, at, ...campaignOf(c.get('firstTouch')) }
        : undefined;
    const counted = exposed.length > 0 || held !== null || ramped.length > 0;
    if (!counted && firstVisit === undefined) return;

    const fields = c.get('logFields');
    if (firstVisit) fields.first_visit = true;
    const stores = experimentStores(c.env);
    // No exposure without experiments: `visitor` is there whenever `exposed` is not empty.
    if (!counted || visitor === undefined) {
      afterAnswer(
        c,
        logFailure(c.get('requestId'), recordFirstVisit(stores, firstVisit), { route }),
      );
      return;
    }
    fields.exposure = verdict;
    const arms = armsOf(exposed, held, ramped);
    fields.exposed = arms.map((arm) => arm.experiment).join(',');
    // A bot is pinned too: one that keeps cookies is counted once per experiment, as a person.
    await writePins(
      c,
      visitor.pins,
      [...exposed.map(({ assignment }) => assignment), ...(held ? [held.pin] : [])],
      visitor.account,
    );
    if (bot) fields.bot = bot;
    const counting = countExposures(c, visitorId, arms, { at, returning, firstVisit, bot });
    const about: Record<string, string> = bot ? { bot } : { experiments: fields.exposed as string };
    afterAnswer(c, logFailure(c.get('requestId'), counting, about));
  };
}

/**
 * Writes a person's exposures on the page to their shard, while the request's address is within
 * its day's budget (../experiments/exposure/exposure-budget.ts, asked after the answer); past it,
 * counts the page's draws apart as `over_budget`, and the visitor's first visit either way. A
 * known bot's draws are counted apart as `bots`, whatever the budget.
 */
async function countExposures(
  c: Context<ExposureEnv>,
  visitorId: string,
  arms: readonly ExperimentArm[],
  counted: { at: number; returning: boolean; firstVisit?: FirstVisit; bot: BotReason | null },
): Promise<void> {
  const { at, returning, firstVisit, bot } = counted;
  const stores = experimentStores(c.env);
  if (bot) return recordLeftOutExposures(stores, visitorId, arms, 'bots');
  const within = await exposureWithinBudget(
    c.env,
    c.req.header('cf-connecting-ip'),
    c.get('requestId'),
  );
  if (!within) {
    return recordLeftOutExposures(stores, visitorId, arms, 'over_budget', firstVisit);
  }
  const config = c.get('config');
  const segments = exposureSegments(c);
  const exposures = arms.map((arm) => ({
    ...arm,
    visitorId,
    configVersion: config.version,
    at,
    segments,
  }));
  // The quiz choices the visitor gave before this page, for the segments by an answer.
  const choices = segmentChoices(await keptAnswers(signedCookiesOf(c)), config.content);
  const answers = choices.map((choice) => ({ ...choice, visitorId, at: at - 1 }));
  return recordVisitorExposures(stores, exposures, { returning, firstVisit, answers });
}

/** Every arm the page exposes: its experiments', the holdout group's, the ramped routes'. */
function armsOf(
  exposed: readonly { assignment: ExperimentAssignment }[],
  held: HoldoutExposure | null,
  ramped: readonly ExperimentArm[],
): ExperimentArm[] {
  const arms = exposed.map(({ assignment }) => ({
    experiment: assignment.experiment,
    phase: assignment.phase,
    variant: assignment.variant,
  }));
  return [...arms, ...(held ? [held.arm] : []), ...ramped];
}

/** The answered request as the exposure and first-visit rules read it. */
function answeredOf(c: Context<ExposureEnv>, returning: boolean) {
  const header = (name: string) => c.req.header(name);
  return {
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    preview: c.get('preview') !== undefined,
    speculative: isSpeculative(header),
    cookielessReturn: isCookielessReturn(header, returning),
    bot: knownBotReason(c.req.header('user-agent'), c.req.raw.cf),
  };
}

/** The write, with its failure logged as `exposure_failed` rather than thrown. */
function logFailure(
  requestId: string,
  write: Promise<void>,
  fields: Record<string, string | number | null>,
): Promise<void> {
  return write.catch((error: unknown) =>
    logError('exposure_failed', {
      id: requestId,
      ...fields,
      detail: describeError(error),
    }),
  );
}

/** What the funnel by campaign counts a first visit under: its first touch's source and campaign. */
function campaignOf(touch: FirstTouch | undefined): { source: string; campaign: string } {
  return { source: touch?.source ?? 'direct', campaign: touch?.utm.campaign ?? '' };
}

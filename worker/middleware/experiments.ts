import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { SplitDocument } from '../../shared/config/split';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { fixedPlacement, HASHED_PLACEMENT } from '../experiments/assignment/assign';
import {
  ACCOUNT_PINS_COOKIE,
  accountSubject,
  PINS_COOKIE,
  parsePins,
} from '../experiments/assignment/pins';
import {
  type CompiledExperiments,
  compiledExperiments,
  type VisitorAccount,
} from '../experiments/config/evaluate';
import {
  armsProblem,
  type ServedConfig,
  type VisitorGets,
  visitorGets,
} from '../experiments/config/visitor-gets';
import { isCookielessReturn } from '../experiments/exposure/exposure-rules';
import { holdoutExposure } from '../experiments/holdout/holdout';
import { landingTypeOf, type RandomSource } from '../funnel/flow';
import { ignorePreviewCookie, type PreviewedRoute } from '../funnel/preview';
import {
  clearCookie,
  reportInvalidCookie,
  requestFacts,
  signedCookiesOf,
  VARIANT_COOKIE,
  VISITOR_COOKIE,
  visitorIdOf,
} from '../request/cookies';
import type { ExperimentsMiddlewareEnv } from '../request/envs';
import { heldAccount } from '../request/signed-in-user';
import { chosenRouteOf, type VisitorFacts } from '../routing/router';
import type { CookieRejection } from '../signing';

/**
 * The signed-in account (worker/request/signed-in-user.ts) and its pins, where a layer holds
 * a price test and the product API named the account's user id; else null. Pins not signed for
 * this account are none.
 */
async function accountOf<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  compiled: CompiledExperiments,
): Promise<VisitorAccount | null> {
  if (compiled.accountLayers.size === 0) return null;
  const cookies = signedCookiesOf(c);
  const held = await heldAccount(cookies);
  if (held?.userId == null) return null;
  const pins = await cookies.read(ACCOUNT_PINS_COOKIE, accountSubject(held.userId));
  return { id: held.userId, pins: parsePins(pins.state === 'valid' ? pins.value : undefined) };
}

/** The pin cookies a request brought that are not signed for the visitor, to be cleared. */
type UnreadPins = { name: string; reason: CookieRejection }[];

/**
 * The pins a request carries: `gf_x`, and the split's `gf_variant`, each read only when signed
 * for the visitor id. A pin a visitor wrote, edited or copied (one naming a paused variant, say)
 * is no pin: the visitor is drawn like a new one. Those cookies are returned to be cleared.
 */
async function pinsOf<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  split: SplitDocument,
): Promise<{ pins: Map<string, string>; unread: UnreadPins }> {
  const cookies = signedCookiesOf(c);
  const [others, variant] = await Promise.all([
    cookies.read(PINS_COOKIE),
    cookies.read(VARIANT_COOKIE),
  ]);
  const unread: UnreadPins = [];
  if (others.state === 'invalid') unread.push({ name: PINS_COOKIE, reason: others.reason });
  if (variant.state === 'invalid') unread.push({ name: VARIANT_COOKIE, reason: variant.reason });
  const pins = parsePins(others.state === 'valid' ? others.value : undefined);
  pins.delete(SPLIT_EXPERIMENT_ID);
  if (variant.state === 'valid' && Object.hasOwn(split.variants, variant.value))
    pins.set(SPLIT_EXPERIMENT_ID, variant.value);
  return { pins, unread };
}

/**
 * Reports each pin cookie not read, once: it is cleared unless the page pinned the visitor
 * afresh (worker/middleware/exposure.ts writes the cookie again, signed), so the next page
 * brings none, or a signed one. A preview pins nothing and clears nothing.
 */
function clearUnreadPins<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  unread: UnreadPins,
): void {
  const written = new Set(
    c.res.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf('='))),
  );
  for (const { name, reason } of unread) {
    reportInvalidCookie(c, name, reason);
    if (!written.has(name)) clearCookie(c, name);
  }
}

/**
 * The variant or route a marketer is previewing in this browser (worker/funnel/preview.ts), as
 * worker/middleware/preview-cookie.ts verified it, or null. A preview naming a variant the split
 * no longer has, or an arm of an experiment that no longer runs or lacks that variant, is
 * ignored (and cleared, with a warning line): the visitor is then treated like anyone else. A
 * route's preview carries the route whole (its flow, plans and content, signed), so it shows a
 * route of a draft as well as a live one.
 */
function previewed<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  config: ServedConfig,
): { variant: string } | { route: PreviewedRoute } | null {
  const opened: { variant: string } | { route: PreviewedRoute } | undefined =
    c.get('openedPreview');
  if (opened === undefined) return null;
  if ('route' in opened) {
    const arms = new Map(Object.entries(opened.route.arms ?? {}));
    if (arms.size === 0 || armsProblem(config, arms) === null) return opened;
    ignorePreviewCookie(c, c.get('requestId'), 'unknown_arm');
    return null;
  }
  if (!Object.hasOwn(config.split.variants, opened.variant)) {
    ignorePreviewCookie(c, c.get('requestId'), 'unknown_variant');
    return null;
  }
  return opened;
}

/** Facts for a request that has no first touch (the API): rules read nothing from it. */
const NO_FACTS: VisitorFacts = { get: () => null };

/**
 * Places the visitor in the experiments (docs/experiments.md) and sets the funnel they walk:
 * `flow`, `variant` (the split's, whose key and landing type SPEC.md §4 gives), `experiments`.
 *
 * Nothing is stored here: before exposure a visitor's variants follow from the hash of their id,
 * the same on every page; worker/middleware/exposure.ts pins them once a page exposes them. A
 * marketer's preview wins over both and assigns nothing; `skip_split` (SPEC.md §4) and a browser
 * that keeps no cookies (a new id per page, so a new variant per page) get every experiment's
 * control, and are never exposed.
 */
export function experiments(
  options: { random?: RandomSource; now?: () => number } = {},
): MiddlewareHandler<ExperimentsMiddlewareEnv> {
  const { random } = options;
  const placement = random ? fixedPlacement(random) : HASHED_PLACEMENT;
  const now = options.now ?? Date.now;
  return async function experimentsMiddleware(c, next) {
    const config = c.get('config');
    const preview = previewed(c, config);
    if (preview !== null) {
      showPreview(c, preview, now());
      await next();
      return;
    }
    const compiled = compiledExperiments(
      config.experiments,
      config.split,
      config.routing,
      config.content,
    );
    const [{ pins, unread }, account] = await Promise.all([
      pinsOf(c, config.split),
      accountOf(c, compiled),
    ]);
    const exposable =
      c.req.query('skip_split') !== 'true' &&
      !isCookielessReturn(
        (name) => c.req.header(name),
        visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null,
      );
    const at = now();
    const gets = visitorGets(
      config,
      {
        route: c.get('route'),
        facts: factsOf(c, at),
        now: at,
        draw: { visitorId: c.get('visitorId'), pins, account },
        controls: !exposable,
      },
      placement,
    );
    const { assignments, base, shape } = gets;
    setFunnel(c, gets);
    const holdout = exposable ? holdoutExposure(config.experiments, gets.holdout, pins) : null;
    c.set('experiments', { assignments, base, shape, exposable, pins, account, holdout });
    const fields = c.get('logFields');
    if (assignments.length > 0)
      fields.experiments = assignments.map((a) => `${a.experiment}:${a.variant}`).join(',');
    await next();
    if (unread.length > 0) clearUnreadPins(c, unread);
  };
}

/** What the experiments' audiences read of the request (its first touch's, as the route's). */
function factsOf<E extends ExperimentsMiddlewareEnv>(c: Context<E>, at: number): VisitorFacts {
  const touch = c.get('firstTouch');
  return touch ? requestFacts(c, touch, at) : NO_FACTS;
}

/** The split's variant (its key and landing type, SPEC.md §4) and the flow of what is served. */
function setFunnel<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  gets: Pick<VisitorGets, 'assignments' | 'shape'>,
  key = gets.assignments.find((a) => a.experiment === SPLIT_EXPERIMENT_ID)?.variant ??
    c.get('config').split.defaultVariant,
): void {
  c.set('variant', { key, landingType: landingTypeOf(key) });
  c.set('flow', { name: gets.shape.flow, screens: gets.shape.screens });
}

/**
 * A preview shows one split variant, or one route, undrawn (worker/funnel/preview.ts): the funnel
 * a visitor of the previewer's route (or of the route previewed) gets with the variant's arm (or
 * the arms the route's preview chose), rolled-out winners and the route's content applied, and
 * each other running experiment at its control, as visitorGets works it out for anyone. The
 * route middleware kept nothing for it, and nothing here is assigned, exposed or counted.
 */
function showPreview<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  preview: { variant: string } | { route: PreviewedRoute },
  at: number,
): void {
  const config = c.get('config');
  let route = c.get('route');
  let arms = new Map<string, string>();
  if ('route' in preview) {
    route = chosenRouteOf(preview.route);
    arms = new Map(Object.entries(preview.route.arms ?? {}));
    c.set('route', route);
    c.get('logFields').route = route.id;
  } else {
    arms.set(SPLIT_EXPERIMENT_ID, preview.variant);
  }
  const gets = visitorGets(config, {
    route,
    facts: factsOf(c, at),
    now: at,
    draw: null,
    arms,
  });
  // Nothing of a preview is pinned or exposed: every arm is shown, none kept.
  const assignments = gets.assignments.map((a) => ({ ...a, state: 'applied' as const }));
  const key = 'route' in preview ? undefined : preview.variant;
  setFunnel(c, { assignments, shape: gets.shape }, key);
  c.set(
    'preview',
    'route' in preview
      ? { variant: c.get('variant').key, route: route.id }
      : { variant: preview.variant },
  );
  c.set('experiments', {
    assignments,
    base: gets.base,
    shape: gets.shape,
    exposable: false,
    pins: new Map(),
    account: null,
    holdout: null,
  });
  c.get('logFields').preview = true;
}

import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { SplitDocument } from '../../shared/config/split';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { type PlanChoices, planChoicesOf } from '../../shared/plans/screen-offers';
import { fixedPlacement, HASHED_PLACEMENT } from '../experiments/assignment/assign';
import {
  ACCOUNT_PINS_COOKIE,
  accountSubject,
  PINS_COOKIE,
  parsePins,
  serializePins,
} from '../experiments/assignment/pins';
import {
  assignExperiments,
  type CompiledExperiments,
  compiledExperiments,
  type ExperimentAssignment,
  shapeOf,
  type VisitorAccount,
} from '../experiments/config/evaluate';
import type { FunnelShape } from '../experiments/config/funnel-shape';
import { isCookielessReturn } from '../experiments/exposure/exposure-rules';
import type { ActiveFlow } from '../funnel/flow';
import { flowNameOf, resolveFlow } from '../funnel/flow';
import { ignorePreviewCookie, type PreviewedRoute } from '../funnel/preview';
import type { VariantAssignment } from '../funnel/split-test';
import { landingTypeOf, type RandomSource } from '../funnel/split-test';
import type { VisitorFacts } from '../routing/router';
import type { CookieRejection } from '../signing';
import type { ExperimentsMiddlewareEnv, RootEnv } from './envs';
import { requestFacts } from './route';
import {
  clearCookie,
  readSignedCookie,
  reportInvalidCookie,
  signedCookiesOf,
  writeSignedCookie,
} from './signed-cookies';
import { heldAccount } from './signed-in-user';
import { VISITOR_COOKIE, VISITOR_COOKIE_MAX_AGE, visitorIdOf } from './visitor';

/** Set by the experiments middleware. */
export interface ExperimentVariables {
  variant: VariantAssignment;
  flow: ActiveFlow;
  /** The visitor's experiments and the funnel they make. */
  experiments: VisitorExperiments;
  /**
   * Set on a marketer's preview of a variant, or of a route (`route`, its id) with the split's
   * default variant (worker/funnel/preview.ts): the page shows that variant's or route's flow,
   * assigns nothing, and sends nothing to analytics or the ad networks.
   */
  preview?: { variant: string; route?: string };
}

/**
 * The split experiment's pin, as it was before there were others (SPEC.md §4's stored variant),
 * signed like `gf_x`.
 */
const VARIANT_COOKIE = 'gf_variant';

/** What the experiments make of a request (worker/experiments/config/evaluate.ts). */
export interface VisitorExperiments {
  /** At most one per layer, in layer order. */
  assignments: readonly ExperimentAssignment[];
  /** The route's funnel, and the visitor's: the route's with each variant's change on top. */
  base: FunnelShape;
  shape: FunnelShape;
  /**
   * Whether a page of this request may expose the visitor: not a preview, `skip_split`, nor a
   * browser that keeps no cookies (worker/middleware/exposure.ts decides the rest).
   */
  exposable: boolean;
  /** The pins the visitor came with, experiment id → variant. */
  pins: ReadonlyMap<string, string>;
  /** The signed-in account and its pins, where a layer holds a price test; else null. */
  account: VisitorAccount | null;
}

const cookieOptions = {
  maxAge: VISITOR_COOKIE_MAX_AGE,
  path: '/',
  secure: true,
  sameSite: 'Lax',
} as const;

/**
 * Pins the visitor to the variants of the experiments they were just exposed to, beside the
 * ones they hold: `gf_x`, and `gf_variant` for the split, which a visitor of before holds, both
 * signed for the visitor id (worker/middleware/signed-cookies.ts), which must be set; and, for
 * the arms drawn by the account (a layer with a price test), `gf_ax`, signed for the account.
 */
export async function writePins<E extends RootEnv>(
  c: Context<E>,
  held: ReadonlyMap<string, string>,
  exposed: readonly Pick<ExperimentAssignment, 'experiment' | 'variant' | 'byAccount'>[],
  account: VisitorAccount | null = null,
): Promise<void> {
  const pins = new Map(held);
  const accountPins = new Map(account?.pins);
  let split: string | undefined;
  let toAccount = false;
  for (const { experiment, variant, byAccount } of exposed) {
    if (byAccount && account !== null) {
      accountPins.set(experiment, variant);
      toAccount = true;
    } else if (experiment === SPLIT_EXPERIMENT_ID) split = variant;
    else pins.set(experiment, variant);
  }
  pins.delete(SPLIT_EXPERIMENT_ID);
  await Promise.all([
    split === undefined ? undefined : writeSignedCookie(c, VARIANT_COOKIE, split, cookieOptions),
    pins.size === 0
      ? undefined
      : writeSignedCookie(c, PINS_COOKIE, serializePins(pins), cookieOptions),
    toAccount && account !== null
      ? writeSignedCookie(
          c,
          ACCOUNT_PINS_COOKIE,
          serializePins(accountPins),
          cookieOptions,
          accountSubject(account.id),
        )
      : undefined,
  ]);
}

/**
 * The signed-in account (worker/middleware/signed-in-user.ts) and its pins, where a layer holds
 * a price test and the product API named the account's user id; else null. Pins not signed for
 * this account are none.
 */
async function accountOf<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  compiled: CompiledExperiments,
): Promise<VisitorAccount | null> {
  if (compiled.accountLayers.size === 0) return null;
  const held = await heldAccount(signedCookiesOf(c));
  if (held?.userId == null) return null;
  const pins = await readSignedCookie(c, ACCOUNT_PINS_COOKIE, accountSubject(held.userId));
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
  const [others, variant] = await Promise.all([
    readSignedCookie(c, PINS_COOKIE),
    readSignedCookie(c, VARIANT_COOKIE),
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
 * no longer has is ignored (and cleared, with a warning line): the visitor is then treated like
 * anyone else. A route's preview carries the route whole (its flow and plans, signed), so it
 * shows a route of a draft as well as a live one.
 */
function previewed<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  split: SplitDocument,
): { variant: string } | { route: PreviewedRoute } | null {
  const opened: { variant: string } | { route: PreviewedRoute } | undefined =
    c.get('openedPreview');
  if (opened === undefined) return null;
  if ('route' in opened) return opened;
  if (!Object.hasOwn(split.variants, opened.variant)) {
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
    const { split, flows, routing, experiments: document } = c.get('config');
    const preview = previewed(c, split);
    if (preview !== null) {
      showPreview(c, preview);
      await next();
      return;
    }
    const route = c.get('route');
    const base: FunnelShape = {
      ...asShape(resolveFlow(flows, route.flow)),
      ...planChoicesOf(route),
      ...(route.content ? { content: route.content } : {}),
      ...(route.anchors === false ? { anchors: false } : {}),
      ...(route.countdown === false ? { countdown: false } : {}),
    };
    const compiled = compiledExperiments(document, split, routing, c.get('config').content);
    const [{ pins, unread }, account] = await Promise.all([
      pinsOf(c, split),
      accountOf(c, compiled),
    ]);
    const at = now();
    const touch = c.get('firstTouch');
    const visitorId = c.get('visitorId');
    let assignments = assignExperiments(
      compiled,
      {
        visitorId,
        route: route.id,
        facts: touch ? requestFacts(c, touch, at) : NO_FACTS,
        pins,
        account,
        now: at,
      },
      placement,
    );
    const exposable =
      c.req.query('skip_split') !== 'true' &&
      !isCookielessReturn(
        (name) => c.req.header(name),
        visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null,
      );
    if (!exposable) {
      assignments = assignments.map((assignment) => ({
        ...assignment,
        variant: compiled.byId.get(assignment.experiment)?.control ?? assignment.variant,
        state: 'applied',
      }));
    }
    const shape = shapeOf(compiled, base, assignments, flows);
    const splitVariant =
      assignments.find((assignment) => assignment.experiment === SPLIT_EXPERIMENT_ID)?.variant ??
      split.defaultVariant;
    c.set('variant', { key: splitVariant, landingType: landingTypeOf(splitVariant) });
    c.set('flow', { name: shape.flow, screens: shape.screens });
    c.set('experiments', { assignments, base, shape, exposable, pins, account });
    const fields = c.get('logFields');
    if (assignments.length > 0)
      fields.experiments = assignments.map((a) => `${a.experiment}:${a.variant}`).join(',');
    await next();
    if (unread.length > 0) clearUnreadPins(c, unread);
  };
}

function asShape(flow: { name: string; screens: FunnelShape['screens'] }) {
  return { flow: flow.name, screens: flow.screens };
}

/**
 * A preview shows one split variant's flow, or one route's funnel, undrawn: the route middleware
 * kept nothing for it (worker/middleware/route.ts), and nothing here is assigned or exposed.
 */
function showPreview<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  preview: { variant: string } | { route: PreviewedRoute },
): void {
  const { split, flows } = c.get('config');
  let key = split.defaultVariant;
  let flow = resolveFlow(flows, flowNameOf(split, key));
  let plans: PlanChoices = planChoicesOf(c.get('route'));
  if ('route' in preview) {
    const { id, flow: name } = preview.route;
    plans = planChoicesOf(preview.route);
    flow = resolveFlow(flows, name);
    c.set('route', { id, flow: name, ...plans });
    c.set('preview', { variant: key, route: id });
    c.get('logFields').route = id;
  } else {
    key = preview.variant;
    flow = resolveFlow(flows, flowNameOf(split, key));
    c.set('preview', { variant: key });
  }
  const shape: FunnelShape = { ...asShape(flow), ...plans };
  c.set('variant', { key, landingType: landingTypeOf(key) });
  c.set('flow', flow);
  c.set('experiments', {
    assignments: [],
    base: shape,
    shape,
    exposable: false,
    pins: new Map(),
    account: null,
  });
  c.get('logFields').preview = true;
}

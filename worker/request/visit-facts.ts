import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { SplitDocument } from '../../shared/config/split';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { NO_PLAN_CHOICES } from '../../shared/plans/screen-offers';
import type { Answers } from '../../shared/quiz/answers';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import type { AccessCheck } from '../access/console-access';
import { type ConfigSource, DEFAULT_CONFIG_TTL_MS } from '../config/load';
import { honoursCountryHeader, honoursPreviewCountry } from '../environment';
import type { Placement } from '../experiments/assignment/assign';
import {
  ACCOUNT_PINS_COOKIE,
  accountSubject,
  PINS_COOKIE,
  parsePins,
} from '../experiments/assignment/assign';
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
import { holdoutExposure, routesPassedOver } from '../experiments/holdout/holdout';
import { routeRampDraw } from '../experiments/ramps/route-ramp';
import { activeFlow, landingTypeOf } from '../funnel/flow';
import {
  draftContentOf,
  draftCountryOf,
  ignorePreviewCookie,
  PREVIEW_COOKIE,
  type PreviewedRoute,
  previewAuthorOf,
  previewKey,
  readPreviewCookie,
} from '../preview/preview';
import {
  type ChosenRoute,
  chooseRouteDrawn,
  chosenRouteOf,
  compiledRouting,
  decodeKeptRoute,
  encodeKeptRoute,
  type VisitorFacts,
} from '../routing/router';
import type { CookieRejection } from '../signing';
import {
  clearCookie,
  isCookielessReturn,
  keptFirstTouch,
  ROUTE_COOKIE,
  reportInvalidCookie,
  requestFacts,
  type SignedCookie,
  signedCookiesOf,
  storedOrNewVisitorId,
  VARIANT_COOKIE,
  VISITOR_COOKIE,
  visitorIdOf,
  writeSignedCookie,
} from './cookies';
import type {
  BaseVariables,
  ConfigVariables,
  CountryVariables,
  EnvOf,
  ExperimentsMiddlewareEnv,
  PreviewCookieVariables,
  RouteMiddlewareEnv,
  VisitorVariables,
} from './envs';
import { keptAnswers } from './kept-answers';
import { heldAccount } from './signed-in-user';

/**
 * The visit's facts as its request gives them, each decided once and set on the context for every
 * later reader: the visitor (decodeVisitor), a marketer's preview (decodePreview), the country
 * (decodeCountry), the funnel config (decodeConfig), the route (decodeRoute) and the arms
 * (decodeArms), each reading the facts set before it. The pages' middleware run one each, in
 * their sub-app's order (worker/middleware/visitor.ts, preview-cookie.ts, country.ts,
 * funnel-config.ts, route.ts, experiments.ts); the browser's API runs them in one pass
 * (worker/middleware/browser-visit.ts).
 */

/** The visitor's id (`userUuid`), made and kept for a browser that brought none. */
export function decodeVisitor<E extends EnvOf<BaseVariables & VisitorVariables>>(
  c: Context<E>,
): void {
  c.set('visitorId', storedOrNewVisitorId(c));
}

/**
 * Reads a marketer's preview cookie once per request, before anything that treats a preview
 * apart (the country a preview names, the first touch and route it does not keep, the draft copy
 * it shows, the experiments it skips), so each reads this verified fact and none re-verifies.
 *
 * The token is checked for the visitor id the browser's own `userUuid` cookie holds, not one
 * the visitor middleware just drew: a browser without one cannot hold a preview signed for it;
 * and for the marketer Cloudflare Access says the request is from (`access`, asked only when
 * there is a cookie): a cookie pair lent to someone else, or carried out of the marketer's
 * signed-in browser, previews nothing.
 * A cookie that is not authentic, current and this browser's (forged, expired, or copied from
 * the marketer's browser) is ignored with one warning line and cleared: the visitor then walks
 * their own route and arms, and is exposed and counted like anyone else.
 */
export async function decodePreview<E extends EnvOf<BaseVariables & PreviewCookieVariables>>(
  c: Context<E>,
  access: AccessCheck,
): Promise<void> {
  const cookie = await readPreviewCookie(
    getCookie(c, PREVIEW_COOKIE),
    previewKey(c.env),
    Date.now(),
    {
      visitorId: visitorIdOf(getCookie(c, VISITOR_COOKIE)),
      author: previewAuthorOf(access, c.env, c.req.raw),
    },
  );
  if (cookie.state === 'invalid') {
    ignorePreviewCookie(c, c.get('requestId'), cookie.reason);
  } else if (cookie.state === 'valid') {
    c.set(
      'openedPreview',
      'route' in cookie ? { route: cookie.route } : { variant: cookie.variant },
    );
  }
}

const COUNTRY = /^[A-Z]{2}$/;

/**
 * Where the country is decoded: after the visitor and the preview, but the collector has neither.
 */
export type CountryMiddlewareEnv = EnvOf<
  BaseVariables & Partial<VisitorVariables> & PreviewCookieVariables & CountryVariables
>;

/** An ISO country code as the edge or a tester writes it, or null ('XX', 'T1' and junk). */
function countryCode(candidate: string | null | undefined): string | null {
  const code = candidate?.trim().toUpperCase();
  // 'XX' and 'T1' (Tor) are Cloudflare's "no country" answers.
  return code && COUNTRY.test(code) && code !== 'XX' ? code : null;
}

/** `request.cf.country` where the runtime gives one. */
function edgeCountry(request: Request): string | undefined {
  const fromCf = (request.cf as { country?: unknown } | undefined)?.country;
  return typeof fromCf === 'string' ? fromCf : undefined;
}

/**
 * The `?country=` a preview's request names: a page's own query; for an `/api` call, which
 * carries no query of the page (and `/api/geocode` has a `country` of its own), the query of the
 * page that made it (the same-origin `Referer`, as the offer check reads `skip_split`).
 */
function namedCountry(requestUrl: string, referer: string | undefined): string | null {
  const url = new URL(requestUrl);
  if (!url.pathname.startsWith('/api/')) return url.searchParams.get('country');
  if (!referer) return null;
  try {
    const page = new URL(referer);
    return page.origin === url.origin ? page.searchParams.get('country') : null;
  } catch {
    return null;
  }
}

/**
 * The country a marketer's preview names with `?country=`, where that is honoured: only in the
 * browser the preview was opened in (decodePreview, above, verified it).
 */
function previewCountry<E extends CountryMiddlewareEnv>(c: Context<E>): string | null {
  if (!honoursPreviewCountry(c.env) || c.get('openedPreview') === undefined) return null;
  return countryCode(namedCountry(c.req.url, c.req.header('referer')));
}

/**
 * In development, the country a request names by header, else the one the visit's signed first
 * touch keeps: a visitor stays where their first page was from, as their address keeps them in
 * one country in production, though a browser sends a header its tester set on some requests
 * only (Chromium's speculative prefetch of the next screen carries no header a test or an
 * extension adds, and neither does an /api call that a tool leaves out).
 */
async function toldCountry<E extends CountryMiddlewareEnv>(
  c: Context<E>,
  header: string | undefined,
): Promise<string | null> {
  const named = countryCode(header);
  if (named !== null) return named;
  if (!c.get('visitorId')) return null;
  const { touch } = await keptFirstTouch(signedCookiesOf(c), Date.now());
  return countryCode(touch?.country);
}

/**
 * The visitor's country (c.get('country')), or null when unknown:
 * - on Cloudflare's edge (production, staging), `request.cf.country`, which Cloudflare takes from
 *   the visitor's address; the `CF-IPCountry` header only where the runtime gives no `cf`;
 * - in development (honoursCountryHeader), the `CF-IPCountry` header first, then the country the
 *   visit's first touch kept (toldCountry): `wrangler dev` gives every request a `cf.country` of
 *   its own, so the header is how a tester is a visitor from anywhere
 *   (`curl -H 'CF-IPCountry: DE' …`);
 * - outside production (honoursPreviewCountry), a marketer's preview may name it with
 *   `?country=DE`, over both; its pages then take their first touch and route afresh
 *   (c.get('previewCountry')). A preview keeps and counts nothing, so this reaches no visitor.
 */
export async function decodeCountry<E extends CountryMiddlewareEnv>(c: Context<E>): Promise<void> {
  // The console's own preview of a draft names its country on the request it made (a visitor
  // cannot), so it holds in production too, where `?country=` does not.
  const previewed = draftCountryOf(c.req.raw) ?? previewCountry(c);
  if (previewed !== null) {
    c.set('country', previewed);
    c.set('previewCountry', true);
  } else {
    const header = c.req.header('cf-ipcountry');
    const told = honoursCountryHeader(c.env) ? await toldCountry(c, header) : null;
    c.set('country', told ?? countryCode(edgeCountry(c.req.raw) ?? header));
  }
}

/**
 * The validated funnel config (split weights, flows, routes, experiments, content), from the
 * per-isolate cache over KV; the console's preview of a draft content shows that content
 * (worker/preview/preview.ts, withDraftContent).
 */
export async function decodeConfig<E extends EnvOf<BaseVariables & ConfigVariables>>(
  c: Context<E>,
  source: ConfigSource,
): Promise<void> {
  const ttl = Number(c.env.CONFIG_CACHE_TTL_MS ?? DEFAULT_CONFIG_TTL_MS);
  const ttlMs = Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_CONFIG_TTL_MS;
  const config = await source.load(c.env.FUNNEL_CONFIG, ttlMs);
  const draft = draftContentOf(c.req.raw);
  c.set('config', draft ? { ...config, content: draft } : config);
}

const ROUTE_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
  path: '/',
} as const;

/**
 * Chooses the visitor's route (worker/routing/router.ts) on a page request, before the split
 * test, which draws only the visitors of the routes it names. The route is kept for the visit
 * in `gf_route`, so a visitor mid-funnel keeps their route when marketers reorder, pause or
 * reschedule routes; only a route that no longer exists, or one chosen a day ago or more
 * (worker/routing/router.ts), is chosen again. Other requests (the
 * API) read the cookie and never choose: their answer has no flow to pick.
 *
 * The cookie is signed for the visitor id (worker/request/cookies.ts) and read only
 * when its signature holds, so a visitor cannot name a route that would not take them (paused,
 * not started, ended, another audience's): they get the route a new visitor like them gets, and
 * an unsigned, edited or copied cookie is reported once and replaced.
 *
 * A new route on a ramp takes only the visitors its band draws by their id; the others get the
 * route the router picks next, and both bands are counted (routeRamps, worker/middleware/
 * exposure.ts). A route whose ramp was rolled back keeps no one: its visitors are routed again.
 *
 * Reads only what the request and the config cached per isolate hold: no KV read, no I/O; one
 * HMAC verify when the request brings the cookie, one signing when the route is chosen.
 */
export async function decodeRoute<E extends RouteMiddlewareEnv>(
  c: Context<E>,
  at: number,
): Promise<void> {
  const routing = compiledRouting(c.get('config').routing);
  // A preview that names its country is a new visitor from there (country, above).
  const cookie: SignedCookie = c.get('previewCountry')
    ? { state: 'none' }
    : await signedCookiesOf(c).read(ROUTE_COOKIE);
  const kept = cookie.state === 'valid' ? decodeKeptRoute(cookie.value, at) : null;
  // A route whose ramp was rolled back keeps no one: they are routed again, to its fallback.
  // Nor does a route kept for some countries hold in another: a cookie pair copied to a
  // visitor elsewhere (or a visitor who moved) carries none of that country's route and plans.
  const keptId =
    kept === null || routing.rolledBack.has(kept) || !routing.holdsIn(kept, c.get('country'))
      ? null
      : kept;
  let chosen: ChosenRoute | undefined = keptId === null ? undefined : routing.byId.get(keptId);
  if (chosen) c.set('routeKept', true);
  const touch = c.get('firstTouch');
  if (!chosen && touch) {
    const facts = requestFacts(c, touch, at);
    const visitorId = c.get('visitorId');
    // A held-out visitor never gets a route new since the holdout started; a ramped route
    // takes the visitors its band draws (docs/routes.md, "A new route on a ramp").
    const passedOver = routesPassedOver(c.get('config'), visitorId, at);
    const drawn = chooseRouteDrawn(
      routing,
      facts,
      at,
      visitorId ? routeRampDraw(visitorId) : () => null,
      passedOver,
    );
    chosen = drawn.route;
    if (drawn.arms.length > 0) c.set('routeRamps', drawn.arms);
    // The exposure middleware counts a new visitor's first visit on the route chosen here.
    c.set('routeChosen', true);
    // A marketer's preview is no visit: it keeps nothing (worker/preview/preview.ts). A preview
    // cookie not verified for this browser is no preview: the visitor's route is kept.
    if (c.get('openedPreview') === undefined) {
      if (cookie.state === 'invalid') reportInvalidCookie(c, ROUTE_COOKIE, cookie.reason);
      await writeSignedCookie(
        c,
        ROUTE_COOKIE,
        encodeKeptRoute(chosen.id, at),
        ROUTE_COOKIE_OPTIONS,
      );
    }
  }
  const current = chosen ?? routing.byId.get(DEFAULT_ROUTE_ID) ?? fallbackRoute;
  c.set('route', current);
  c.get('logFields').route = current.id;
}

const fallbackRoute: ChosenRoute = { id: DEFAULT_ROUTE_ID, flow: 'default', ...NO_PLAN_CHOICES };

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
export type UnreadPins = { name: string; reason: CookieRejection }[];

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
export function clearUnreadPins<E extends ExperimentsMiddlewareEnv>(
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
 * The variant or route a marketer is previewing in this browser (worker/preview/preview.ts), as
 * decodePreview, above, verified it, or null. A preview naming a variant the split
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
 * Returns the pin cookies not read, which the page clears once answered (clearUnreadPins).
 */
export async function decodeArms<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  placement: Placement,
  now: () => number,
): Promise<UnreadPins> {
  const config = c.get('config');
  const preview = previewed(c, config);
  if (preview !== null) {
    showPreview(c, preview, now());
    return [];
  }
  const compiled = compiledExperiments(
    config.experiments,
    config.split,
    config.routing,
    config.content,
  );
  const [{ pins, unread }, account, answers] = await Promise.all([
    pinsOf(c, config.split),
    accountOf(c, compiled),
    // Read only where an audience asks: a signed cookie's check is not free.
    compiled.readsAnswers ? keptAnswers(signedCookiesOf(c)) : undefined,
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
      facts: factsOf(c, at, answers),
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
  return unread;
}

/**
 * What the experiments' audiences read of the request (its first touch's, as the route's), and
 * the visit's kept quiz answers where one of them asks.
 */
function factsOf<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  at: number,
  answers?: Answers,
): VisitorFacts {
  const touch = c.get('firstTouch');
  return touch ? requestFacts(c, touch, at, answers) : NO_FACTS;
}

/** The split's variant (its key and landing type, SPEC.md §4) and the flow of what is served. */
function setFunnel<E extends ExperimentsMiddlewareEnv>(
  c: Context<E>,
  gets: Pick<VisitorGets, 'assignments' | 'shape'>,
  key = gets.assignments.find((a) => a.experiment === SPLIT_EXPERIMENT_ID)?.variant ??
    c.get('config').split.defaultVariant,
): void {
  c.set('variant', { key, landingType: landingTypeOf(key) });
  c.set('flow', activeFlow(c.get('config').flows, gets.shape));
}

/**
 * A preview shows one split variant, or one route, undrawn (worker/preview/preview.ts): the funnel
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

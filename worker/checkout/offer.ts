import type { RenewalConsent } from '../../shared/api/contract';
import { screensInCode } from '../../shared/composed-screens';
import { sha256Hex } from '../../shared/hex';
import { logError, logWarning } from '../../shared/log';
import { isPlanId, planById, planOf } from '../../shared/plans/catalogue';
import {
  type ConsentTerms,
  consentTermsOf,
  sameConsentTerms,
} from '../../shared/plans/consent-terms';
import { couponByCode } from '../../shared/plans/coupons';
import { type Currency, visitorCurrency } from '../../shared/plans/currency';
import { OFFER_SECONDS, type OfferClock } from '../../shared/plans/offer-clock';
import { RENEWAL_CONSENT_VERSION, renewalConsentRule } from '../../shared/plans/renewal-consent';
import { isSellingScreen, type PlanChoices, screenOffer } from '../../shared/plans/screen-offers';
import { ROUTE_LANGUAGES } from '../../shared/routing';
import type { DrawnScreen } from '../../shared/screens';
import type { FunnelConfig } from '../config/load';
import type { Bindings } from '../env';
import { compiledExperiments, shapeOf } from '../experiments/config/evaluate';
import { atControls, skipsSplit as linkSkipsSplit } from '../experiments/config/visitor-gets';
import type { ActiveFlow, FunnelShape } from '../funnel/flow';
import { type ApiRefusal, refusal } from '../http/api-json';
import { cookieKey, type SignedCookies, VISIT_COOKIE_OPTIONS } from '../request/cookies';
import type { Arms, VisitorExperiments } from '../request/envs';

/**
 * The offer, one contract from the page to the charge: what a visitor's screens sell them
 * (offerOf), the countdown's deadline that ends its intro prices (pageOfferClock), the gate
 * a charge passes before the product API hears of it (offerRefusal), and the renewal consent a
 * charge must carry for the offer's terms (renewalConsentGate).
 */

/** One thing a visitor may buy: a plan, with the coupon the screen sells it with (or none). */
export interface OfferedPlan {
  planId: string;
  coupon: string | null;
  /** Sold only to an account that holds a main subscription (an upsell, the guide). */
  afterMain: boolean;
}

/**
 * What a visitor was offered, from the same table their screens render (shared/plans/
 * screen-offers.ts): the plans of every selling screen of their flow, each with its coupon, with
 * the plans their route or price-test arms name (main, upsell, guide) in place of the screens'
 * own, in the currency the screens show them in. Nothing else is for sale to them.
 */
export function offerOf(visit: {
  screens: readonly DrawnScreen[];
  chosen: Partial<PlanChoices> | null | undefined;
  currency: Currency;
  /** The visitor's offer countdown reached zero: the regular prices, no coupon. */
  ended?: boolean;
}): OfferedPlan[] {
  const offered: OfferedPlan[] = [];
  for (const screen of visit.screens) {
    if (!isSellingScreen(screen)) continue;
    const offer = screenOffer(screen, visit.chosen, visit.ended === true);
    for (const family of offer.families) {
      offered.push({
        planId: planOf(family, visit.currency).id,
        coupon: offer.coupon?.code ?? null,
        afterMain: offer.sells !== 'main',
      });
    }
  }
  return offered;
}

/** Why a charge is not forwarded: the plan is not offered, or not with that coupon. */
export type OrderVerdict =
  | { ok: true; afterMain: boolean }
  | { ok: false; code: 'plan_not_offered' | 'coupon_not_offered' };

/**
 * Whether a charge for `planId` with `coupon` (null or empty: none) is something the offer
 * sells: exactly one of its plans with exactly its coupon. A coupon on a plan sold without one,
 * another coupon, or none where the offer carries one (a price never shown) is refused.
 */
export function checkOrder(
  offer: readonly OfferedPlan[],
  planId: string,
  coupon: string | null | undefined,
): OrderVerdict {
  const sent = coupon ? coupon : null;
  const plans = offer.filter((item) => item.planId === planId);
  if (plans.length === 0) return { ok: false, code: 'plan_not_offered' };
  const matches = plans.filter((item) => item.coupon === sent);
  if (matches.length === 0) return { ok: false, code: 'coupon_not_offered' };
  // Where a plan is offered both as a main plan and after one, the main offer wins.
  return { ok: true, afterMain: matches.every((item) => item.afterMain) };
}

/**
 * The offer's deadline for one visitor (SPEC.md §4: the countdown runs 300 s): fixed the first
 * time a page shows them the countdown, and kept for the visit in `gf_offer`, signed for the
 * visitor id (worker/signing.ts) so it cannot be edited, copied from another visitor or
 * typed by hand. The value is the deadline in whole seconds since the epoch. A reload or a
 * decline shows the time left, not the full length again; once it passes, the offer it names
 * ends for that visitor: the pages show the regular prices and the offer gate
 * (offerRefusal, below) charges nothing else.
 *
 * A cookie whose signature does not hold ends the offer (it is replaced by one whose deadline is
 * now): a forged or replayed deadline can shorten the offer, never lengthen or restore it.
 * Without a signing key (outside development, COOKIE_SIGNING_KEY unset) no deadline could be
 * kept, so no countdown is shown and none is enforced: an offer that restarted on every page
 * would be a false claim of limited time.
 */
const OFFER_COOKIE = 'gf_offer';

/** The visit's length as the first touch keeps it (30 days): after that a visit is new. */
const OFFER_COOKIE_OPTIONS = VISIT_COOKIE_OPTIONS;

/** A deadline as the cookie holds it: whole seconds, at most 12 digits. */
const DEADLINE = /^\d{1,12}$/;

type DeadlineRead = { state: 'none' } | { state: 'invalid' } | { state: 'valid'; at: number };

/** Where the deadline is kept: the request's signed cookies, under the bindings' key. */
interface KeptIn {
  env: Bindings;
  cookies: SignedCookies;
}

async function readDeadline(cookies: SignedCookies): Promise<DeadlineRead> {
  const cookie = await cookies.read(OFFER_COOKIE);
  if (cookie.state === 'none') return cookie;
  if (cookie.state === 'invalid') {
    cookies.reportInvalid(OFFER_COOKIE, cookie.reason);
    return { state: 'invalid' };
  }
  if (!DEADLINE.test(cookie.value)) return { state: 'invalid' };
  return { state: 'valid', at: Number(cookie.value) * 1000 };
}

function clockAt(deadlineMs: number, nowMs: number): OfferClock {
  const left = Math.ceil((deadlineMs - nowMs) / 1000);
  return left > 0 ? { state: 'running', secondsLeft: left } : { state: 'ended' };
}

/**
 * The countdown a page shows the visitor, fixing its deadline on the first page that shows one.
 * `countdown` false (the route or variant turned it off): `off`. A marketer's preview keeps
 * nothing: it shows the full length and writes no cookie. Only the preview the experiments
 * middleware honoured counts (the arms' `preview`): a preview cookie copied from the marketer's
 * browser must not give a visitor an offer that never ends.
 */
export async function pageOfferClock(
  page: KeptIn,
  preview: Arms['preview'],
  countdown: boolean,
  nowMs: number,
): Promise<OfferClock> {
  if (!countdown || cookieKey(page.env) === null) return { state: 'off' };
  if (preview !== undefined) {
    return { state: 'running', secondsLeft: OFFER_SECONDS };
  }
  const read = await readDeadline(page.cookies);
  if (read.state === 'valid') return clockAt(read.at, nowMs);
  const seconds = Math.floor(nowMs / 1000);
  // A cookie that is not ours ends the offer now, and is replaced so it is reported once.
  const deadline = read.state === 'invalid' ? seconds : seconds + OFFER_SECONDS;
  await page.cookies.write(OFFER_COOKIE, String(deadline), OFFER_COOKIE_OPTIONS);
  return clockAt(deadline * 1000, nowMs);
}

/**
 * Whether the visitor's offer has ended, for the charge (offerRefusal, below): the deadline passed,
 * or the cookie is not one we signed. A visitor no page showed a countdown has none: nothing
 * was promised to end.
 */
export async function offerEndedForCharge(
  charge: KeptIn,
  countdown: boolean,
  nowMs: number,
): Promise<boolean> {
  if (!countdown || cookieKey(charge.env) === null) return false;
  const read = await readDeadline(charge.cookies);
  if (read.state === 'none') return false;
  return read.state === 'invalid' || read.at <= nowMs;
}

/**
 * The funnel whose screens the paying page showed. The `/api` call passes through the route and
 * experiments middleware like a page (worker/sub-apps/browser-api.ts), so it is the visitor's
 * own: their route, their arms, or the route a marketer previews. One exception: a page opened with
 * `skip_split=true` (SPEC.md §4) shows every running experiment's control, and the API call carries no
 * query of its own; its page (the same-origin `Referer`) says so, and the offer is the
 * controls'. That buys nothing the visitor could not see by adding the parameter themselves.
 */
function shownShape(
  visitor: VisitorExperiments,
  flow: ActiveFlow,
  config: FunnelConfig,
  skipSplit: boolean,
): FunnelShape {
  if (!skipSplit) return { ...visitor.shape, screens: flow.screens };
  const { split, flows, routing, experiments: document } = config;
  const compiled = compiledExperiments(document, split, routing, config.content);
  return shapeOf(compiled, visitor.base, atControls(compiled, visitor.assignments), flows);
}

/** Whether the paying page (`referer`, same origin as `requestUrl` only) said `skip_split=true`. */
function skipsSplit(referer: string | undefined, requestUrl: string): boolean {
  if (!referer) return false;
  try {
    const page = new URL(referer);
    return page.origin === new URL(requestUrl).origin && linkSkipsSplit(page);
  } catch {
    return false;
  }
}

/**
 * What the offer is judged by: the visit as the route and experiments middleware left it, the
 * paying page (`Referer`) and the request's URL, and where the account's main purchase is kept
 * (its request id names the refusal's log line).
 */
export interface OfferAsker {
  experiments: VisitorExperiments;
  flow: ActiveFlow;
  config: FunnelConfig;
  country: string | null;
  routeId: string;
  referer: string | undefined;
  requestUrl: string;
  mainPurchase: MainPurchaseKeeper;
  /**
   * The visitor's offer countdown reached zero (offerEndedForCharge): the intro prices and the
   * coupon it named are sold no more, only the regular prices.
   */
  offerEnded: boolean;
}

/**
 * The offer is the contract: a charge call (`:planId` and its coupon) is forwarded only for a
 * plan the visitor's screens offer, with exactly the coupon they show it with
 * (offerOf, checkOrder), and an upsell only once the signed-in account bought a main plan
 * (holdsMainPurchase, below). Null lets it through; a refusal is logged as a warning with what was
 * asked. Checked before the product API is called, so nothing else is ever charged.
 */
export async function offerRefusal(
  asker: OfferAsker,
  planId: string,
  coupon: string | null | undefined,
): Promise<ApiRefusal | null> {
  const shape = shownShape(
    asker.experiments,
    asker.flow,
    asker.config,
    skipsSplit(asker.referer, asker.requestUrl),
  );
  const offer = offerOf({
    screens: screensInCode(asker.config.content, shape.screens),
    chosen: shape,
    currency: visitorCurrency(asker.config.routing, shape, asker.country),
    ended: asker.offerEnded,
  });
  const verdict = checkOrder(offer, planId, coupon);
  const refused = (code: 'plan_not_offered' | 'coupon_not_offered' | 'main_purchase_required') => {
    logWarning(code, {
      id: asker.mainPurchase.requestId,
      plan: planId.slice(0, 80),
      coupon: coupon ? coupon.slice(0, 80) : null,
      route: asker.routeId,
      flow: asker.flow.name,
      offerEnded: asker.offerEnded,
      // What the visitor's screens did offer, so a refusal says what was asked against what
      // was shown (a currency the country changed, a plan of another arm).
      country: asker.country,
      offered: offer
        .slice(0, 12)
        .map((item) => (item.coupon ? `${item.planId}+${item.coupon}` : item.planId))
        .join(' '),
    });
    return refusal(code);
  };
  if (!verdict.ok) return refused(verdict.code);
  if (!verdict.afterMain) return null;
  const holds = await holdsMainPurchase(asker.mainPurchase);
  if (holds === null) return refusal('internal_error');
  return holds ? null : refused('main_purchase_required');
}

/**
 * Whether the signed-in account holds a main subscription bought through the worker: the upsells
 * are sold after a main purchase only (SPEC.md §2 journey). Kept as one fact in the RATE_LIMITER
 * Durable Object named by the SHA-256 of the session's access token, the bearer the product API
 * charged: a visitor cannot name another account's token, so cannot borrow its purchase. One
 * object write per main purchase, one read per upsell charge; forgotten after a day, the longest
 * an unfinished purchase attempt is kept (islands/payments/attempt.ts).
 */
const KEPT_MS = 24 * 60 * 60_000;

/**
 * Where the fact is kept and whose it is: the RATE_LIMITER namespace, the session's access token
 * (worker/request/signed-in-user.ts, null when signed out), and the request id a
 * failure is logged under.
 */
export interface MainPurchaseKeeper {
  namespace: Bindings['RATE_LIMITER'];
  token: string | null;
  requestId: string;
}

/** The keeper of the session `token` (null: signed out), for the request `requestId`. */
export function mainPurchaseKeeper(
  env: Bindings,
  token: string | null,
  requestId: string,
): MainPurchaseKeeper {
  return { namespace: env.RATE_LIMITER, token, requestId };
}

async function stubFor({
  namespace,
  token,
}: MainPurchaseKeeper): Promise<DurableObjectStub<
  import('../rate-limits/rate-limiter').RateLimiter
> | null> {
  if (token === null) return null;
  return namespace.get(namespace.idFromName(`main_purchase:${await sha256Hex(token)}`));
}

/** Notes that this session's account bought a main plan; a failure is logged. */
export async function rememberMainPurchase(keeper: MainPurchaseKeeper): Promise<void> {
  try {
    const stub = await stubFor(keeper);
    await stub?.remember('1', KEPT_MS);
  } catch (error) {
    logError('main_purchase_unsaved', { id: keeper.requestId, detail: String(error) });
  }
}

/**
 * Whether this session's account bought a main plan through the worker: true, false, or null
 * when the store could not be read (the caller answers so the checkout asks again).
 */
async function holdsMainPurchase(keeper: MainPurchaseKeeper): Promise<boolean | null> {
  try {
    const stub = await stubFor(keeper);
    return stub === null ? false : (await stub.recall()) !== null;
  } catch (error) {
    logError('rate_limiter_failed', { id: keeper.requestId, detail: String(error) });
    return null;
  }
}

/** A charge's body as the contract parsed it, with the consent the page sent, if any. */
interface ChargeBody {
  renewal_consent?: RenewalConsent | null;
  [field: string]: unknown;
}

/** The charge the consent is held to, as the worker would send it. */
export interface ConsentedCharge {
  country: string | null;
  planId: string | null;
  coupon: string | null;
  requestId: string;
  now: number;
  /**
   * Whether the visitor's offer countdown has ended (offerEndedForCharge, above), asked only of a
   * consent that names no terms.
   */
  offerEnded: () => Promise<boolean>;
}

type Gated = { ok: true; body: unknown } | { ok: false; refusal: ApiRefusal };

/** Whether the page's consent names the wording in force, in a language the pages speak. */
function currentConsent(consent: RenewalConsent | null | undefined): RenewalConsent | null {
  if (!consent || consent.text_version !== RENEWAL_CONSENT_VERSION) return null;
  return (ROUTE_LANGUAGES as readonly string[]).includes(consent.language) ? consent : null;
}

/**
 * Whether a consent agrees to what this charge takes. One that names its terms must name the
 * charge's own: the plan, currency, amount now and renewal amount the worker would send. One that
 * names none comes from a page drawn before consents named them, or from an attempt such a page
 * stored and resends after a reload; it is taken while the visitor's offer runs, when nothing but
 * the visitor's own choice changed what Pay charges, and refused once the countdown has ended,
 * which is when such a page turned a ticked trial into the regular price.
 */
async function agreesWithCharge(
  given: RenewalConsent,
  charge: ConsentedCharge,
  charged: ReturnType<typeof consentTermsOf>,
): Promise<boolean> {
  if (given.terms) return sameConsentTerms(given.terms, charged);
  return !(await charge.offerEnded());
}

/** Terms as a log field: `monthly_7d_intro_usd USD 699 then 3999`. */
function termsWords(terms: ConsentTerms | null | undefined): string | null {
  if (!terms) return null;
  return `${terms.plan_id} ${terms.currency} ${terms.amount} then ${terms.renewal_amount}`.slice(
    0,
    200,
  );
}

/**
 * The renewal consent of a charge of a plan that renews (shared/plans/renewal-consent.ts): where
 * the visitor's country asks for it, a charge without the box ticked for the wording in force is
 * refused before the product API is called (the page cannot skip the box by posting itself);
 * a consent whose terms differ from the charge's is refused wherever it comes from (a box
 * ticked before the offer ended or the plan changed: SPEC.md §4's countdown, §9's 300 s); a
 * consent given is stamped with the worker's clock and forwarded as `renewal_consent`, and one
 * that names another wording is dropped. An upsell that renews is a subscription of its own,
 * agreed to on its own screen though the card is already on file; one-time payments (the guide)
 * pass as they are.
 */
export async function renewalConsentGate(charge: ConsentedCharge, body: unknown): Promise<Gated> {
  const { planId } = charge;
  if (planId === null || !isPlanId(planId)) return { ok: true, body };
  const plan = planById(planId);
  if (plan.billing.kind !== 'recurring') return { ok: true, body };
  const { renewal_consent: sent, ...rest } = body as ChargeBody;
  const given = currentConsent(sent);
  if (given) {
    const charged = consentTermsOf(plan, couponByCode(charge.coupon));
    if (!(await agreesWithCharge(given, charge, charged))) {
      logWarning('renewal_consent_changed', {
        id: charge.requestId,
        plan: planId,
        country: charge.country,
        agreed: termsWords(given.terms),
        charged: termsWords(charged),
      });
      return { ok: false, refusal: refusal('renewal_consent_changed') };
    }
    const stamped: RenewalConsent = {
      text_version: given.text_version,
      language: given.language,
      accepted_at: new Date(charge.now).toISOString(),
      ...(given.terms ? { terms: given.terms } : {}),
    };
    return { ok: true, body: { ...rest, renewal_consent: stamped } };
  }
  if (!renewalConsentRule(charge.country).checkbox) return { ok: true, body: rest };
  logWarning('renewal_consent_required', {
    id: charge.requestId,
    plan: planId,
    country: charge.country,
    sent: sent ? String(sent.text_version).slice(0, 80) : null,
  });
  return { ok: false, refusal: refusal('renewal_consent_required') };
}

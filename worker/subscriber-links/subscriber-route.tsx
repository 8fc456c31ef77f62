import { Hono } from 'hono';
import {
  CLAIM_CONFIRM_FIELD,
  REASON_FIELD,
  type SaveOfferCopy,
  type SubscriberView,
} from '../../screens/subscriber/SubscriberPage';
import { longDay, moneyOf, subscriptionRows } from '../../screens/subscriber/subscription-rows';
import type { SubscriptionAddOn, SubscriptionAnswer } from '../../shared/api/subscriber-calls';
import { contractPageHref } from '../../shared/contract-page';
import { logLine } from '../../shared/log';
import { guaranteeApplies, guaranteeEndsAt } from '../../shared/plans/guarantee';
import type { ChargeStepWatch } from '../charge-pipeline/charge-pipeline';
import type { CardFingerprintSource } from '../checkout/charge-call';
import { isProduction } from '../environment';
import { experimentStores } from '../experiments/store/experiment-stores';
import { recordSaveOffer } from '../experiments/store/record-save-offer';
import type { SaveOfferOutcome } from '../experiments/store/save-offer-statements';
import { requestBrand } from '../funnel/locale';
import type { PortalFetch, Visit } from '../portal-client/portal-call';
import { limitRefusal, SUBSCRIBER_PAGE_RULES } from '../rate-limits/rate-limit-gate';
import { afterAnswer } from '../request/after-answer';
import type { SubscriberEnv } from '../request/envs';
import { formBodyLimit, formOriginOnly } from '../request/form-guards';
import { visitOf } from '../request/visit';
import { keysWithPrevious } from '../signing';
import {
  addOnCancelConfirm,
  addOnClaimConfirm,
  addOnDoneView,
  addOnGuaranteeApplies,
  addOnIn,
  addOnSections,
  addOnsNote,
  endedLine,
} from './add-ons';
import { cardUpdateAnswer } from './card-update-route';
import { type DoneAction, doneActionOf, markLinkDone } from './done-links';
import { subscriberLinkKey } from './link-key';
import { SUBSCRIBER_PAGE_PATH, type SubscriberLink, verifySubscriberLink } from './link-token';
import { type SubscriberFacts, subscriberFactsOf } from './page-facts';
import { payDueOf, payDuePageState, updateCardOf } from './pay-due-page';
import { type CardPostDeps, payDueAnswer } from './pay-due-route';
import {
  type FittingAction,
  fittingAction,
  offerActionOf,
  reasonsIn,
  takenView,
} from './save-offer-action';
import { type SaveOfferArm, saveOfferArm } from './save-offer-arm';
import type { SubscriberCardPost } from './subscriber-charge';
import { saveOfferIn, subscriberPage } from './subscriber-page';
import { type SubscriberPortal, subscriberPortal } from './subscriber-portal';

/**
 * The page names nobody to whoever it links to, is kept by no cache, and is in no search index:
 * its address is the subscriber's key to their subscription.
 */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-robots-tag': 'noindex, nofollow',
} as const;

/** Why the page cannot do what was asked, as the subscriber reads it, with its status. */
const REFUSALS = {
  not_configured: 503,
  invalid: 400,
  expired: 410,
  done_canceled: 410,
  done_refunded: 410,
  done_paid: 410,
  unknown: 404,
  unavailable: 503,
  rate_limited: 429,
  not_applicable: 422,
  offer_taken: 409,
} as const;
type Refusal = keyof typeof REFUSALS;

/** The form posts of a page: a button each, nothing to read but the path. */
const FORM_MAX_BYTES = 1024;

export interface SubscriberRouteOptions {
  portalFetch?: PortalFetch;
  now?: () => number;
  /** The card behind a card post's nonce, for the card-testing limits (./subscriber-charge.ts). */
  cardFingerprint?: CardFingerprintSource;
  /** Told each charge pipeline step as it runs (tests only). */
  watchCharge?: ChargeStepWatch;
}

async function pageOf(
  facts: SubscriberFacts,
  view: SubscriberView,
  status = 200,
  production = false,
): Promise<Response> {
  const page = {
    t: facts.t,
    nonce: facts.nonce,
    language: facts.language,
    theme: facts.theme,
    brand: requestBrand(facts.config, facts.theme),
  };
  // Script only for a card form (what is due, a new card): every other page is plain forms.
  const response = await subscriberPage(
    page,
    view,
    status,
    view.kind === 'overview' && (view.payDue || view.updateCard)
      ? payDuePageState(facts, production)
      : {},
  );
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

/** Refusals of a link that will not open again: its page offers to email a fresh one. */
const SPENT_OR_LOST: ReadonlySet<Refusal> = new Set([
  'invalid',
  'expired',
  'done_canceled',
  'done_refunded',
  'done_paid',
  'unknown',
]);

/** The refusal's page, logged (`subscriber_link_refused`) with its reason. */
function refusedPage(facts: SubscriberFacts, refusal: Refusal): Promise<Response> {
  logLine({ id: facts.requestId, event: 'subscriber_link_refused', reason: refusal });
  facts.note('error', `subscriber_${refusal}`);
  const view: SubscriberView = {
    kind: 'refused',
    title: facts.t(`subscriber.refused.${refusal}.title`),
    lead: facts.t(`subscriber.refused.${refusal}.lead`),
    ...(SPENT_OR_LOST.has(refusal)
      ? {
          emailLink: {
            text: facts.t('subscriber.contract.link.title'),
            href: contractPageHref('link', facts.theme),
          },
        }
      : {}),
  };
  return pageOf(facts, view, REFUSALS[refusal]);
}

type Opened = { ok: true; link: SubscriberLink } | { ok: false; refusal: Refusal };

/**
 * The link of the request, if it may open the page: the address under its limit, the signature
 * holding and the date not passed (./link-token.ts), and its action not done yet (./done-links.ts).
 * Nothing is asked of the product API before all of it holds.
 */
async function openLink(
  c: {
    env: SubscriberEnv['Bindings'];
    req: { header(name: string): string | undefined };
  },
  facts: SubscriberFacts,
  token: string,
  now: number,
): Promise<Opened> {
  const asker = {
    env: c.env,
    // The page has no visitor; the rules count the address only.
    visitorId: 'subscriber_page',
    connectingIp: c.req.header('cf-connecting-ip'),
    requestId: facts.requestId,
    note: facts.note,
  };
  if (await limitRefusal(asker, 'subscriber_page', SUBSCRIBER_PAGE_RULES, { phone: null })) {
    return { ok: false, refusal: 'rate_limited' };
  }
  const key = subscriberLinkKey(c.env);
  if (!key.ok) return { ok: false, refusal: 'not_configured' };
  // While the key is rotated, the one before too: the links in receipts and emails keep opening.
  const keys = keysWithPrevious(key.key, c.env.SUBSCRIBER_LINK_KEY_PREVIOUS);
  const verdict = await verifySubscriberLink(keys, token, now);
  if (!verdict.ok)
    return { ok: false, refusal: verdict.reason === 'expired' ? 'expired' : 'invalid' };
  const done = await doneActionOf(c.env, verdict.link.linkId, facts.requestId);
  if (done === 'unknown') return { ok: false, refusal: 'unavailable' };
  if (done !== null) return { ok: false, refusal: `done_${done}` };
  return { ok: true, link: verdict.link };
}

/** The page's own paths for the link it was opened with. */
function pathsOf(token: string) {
  const base = `${SUBSCRIBER_PAGE_PATH}/${encodeURIComponent(token)}`;
  return {
    base,
    cancel: `${base}/cancel`,
    guarantee: `${base}/guarantee`,
    payDue: `${base}/pay-due`,
    card: `${base}/card`,
    saveOffer: `${base}/save-offer`,
  };
}

/**
 * A subscription's status in words, for one that has ended or ends, or whose renewal failed and
 * is due without this page's card form (its card provider named no form the page can show;
 * docs/payments.md, "Pay what is due"); null while it renews.
 */
function statusLine(
  facts: SubscriberFacts,
  subscription: SubscriptionAnswer['data'],
  payingHere: boolean,
): string | null {
  const ended = endedLine(facts, subscription);
  if (ended !== null) return ended;
  return subscription.amount_due !== null && !payingHere ? facts.t('subscriber.status.due') : null;
}

/**
 * The overview of a subscription the product API answered: a cancel while it renews, and the
 * guarantee's claim while its terms apply (shared/plans/guarantee.ts), for a manage link only;
 * then its renewing add-ons, each with its own (./add-ons.ts).
 * `offerShown`: the save offer was shown to this page already, so its cancel goes without it.
 */
function overviewOf(
  facts: SubscriberFacts,
  opened: { link: SubscriberLink; token: string; offerShown: boolean },
  subscription: SubscriptionAnswer['data'],
  now: number,
): SubscriberView {
  const { t, language } = facts;
  const paths = pathsOf(opened.token);
  const manage = opened.link.purpose === 'manage';
  const chargedAt = subscription.charged_at;
  const terms = { status: subscription.status, chargedAt, paidAmount: subscription.paid_amount };
  const until = longDay(guaranteeEndsAt(chargedAt), language);
  const rows = subscriptionRows(subscription, { t, language });
  const paidWith = t('plans.receipt.paid_with');
  const card = rows.find((row) => row.label === paidWith)?.value ?? null;
  const updateCard = updateCardOf(
    facts,
    {
      purpose: opened.link.purpose,
      cardPath: paths.card,
      payPath: paths.payDue,
      card,
      supportEmail: requestBrand(facts.config, facts.theme).supportEmail,
    },
    subscription,
  );
  // The card row stands in the card form that can change it: Update card's, else Pay's (the
  // card that pays becomes the renewals' card).
  const payDue = payDueOf(
    facts,
    {
      payPath: paths.payDue,
      amount: moneyOf(subscription.amount_due, subscription.currency, language),
      card: updateCard ? null : card,
    },
    subscription,
  );
  // With a card form, what is due (or the card) stands in it, and gives way to what it came to.
  const inForm = [payDue?.copy.due, updateCard || payDue?.card ? paidWith : null];
  return {
    kind: 'overview',
    rows: rows.filter((row) => !inForm.includes(row.label)),
    cancelPath:
      manage && subscription.status === 'active'
        ? `${paths.cancel}${opened.offerShown ? '?offer=shown' : ''}`
        : null,
    guarantee:
      manage && until !== null && guaranteeApplies(terms, now)
        ? { action: paths.guarantee, until }
        : null,
    status: statusLine(facts, subscription, payDue !== null),
    payDue,
    updateCard,
    addOns: addOnSections(facts, { manage, base: paths.base }, subscription, now),
  };
}

/** What a count reads of the page's request: its copy and config, the bindings, the runtime. */
type PageRequest = Parameters<typeof afterAnswer>[0] & {
  env: SubscriberEnv['Bindings'];
};

/**
 * Counts `outcome` in the subscription's save offer test arm (./save-offer-arm.ts), when it is in
 * a running one: the arm's count in the subscription's shard after the answer, and its log line
 * when it counted (docs/experiments.md, "Testing the save offer"), each outcome once per
 * subscription however often the page is opened. Returns the arm's offer shown
 * in the page's language (null: none).
 */
function countSaveOffer(
  c: PageRequest,
  facts: SubscriberFacts,
  subscriptionId: string,
  outcome: SaveOfferOutcome,
  at: number,
  reason?: string,
): { arm: SaveOfferArm | null; offer: SaveOfferCopy | null } {
  const arm = saveOfferArm(facts.config.experiments, subscriptionId);
  const offer = saveOfferIn(facts.config.content, facts.language, arm?.offer ?? null);
  // An offer not written in the page's language shows nothing, and counts nothing.
  if (!arm?.counted || offer === null) return { arm, offer };
  const { experiment, phase, variant } = arm;
  const event = {
    experiment,
    phase,
    variant,
    subscriptionId,
    outcome,
    at,
    ...(reason === undefined ? {} : { reason }),
  };
  afterAnswer(c, recordSaveOffer(experimentStores(c.env), event, facts.requestId));
  return { arm, offer };
}

/**
 * The offer's action as this subscription can take it (./save-offer-action.ts), read fresh from
 * the product API; none when the offer does none, it does not fit, or the read fails (the
 * offer's words and the cancel still show).
 */
async function fittingActionOf(
  facts: SubscriberFacts,
  arm: SaveOfferArm | null,
  readSubscription: SubscriberPortal['read'],
): Promise<FittingAction | null> {
  const action = offerActionOf(facts.config.content, arm?.offer ?? null);
  if (action === null) return null;
  const read = await readSubscription();
  if (!read.ok) return null;
  return fittingAction(action, read.value, { t: facts.t, language: facts.language, arm });
}

/** The cancel's reason for leaving as posted, if it is one of the marketer's; else none. */
function leavingReason(facts: SubscriberFacts, form: Record<string, unknown>): string | undefined {
  const posted = form[REASON_FIELD];
  if (typeof posted !== 'string' || posted === '') return undefined;
  if (Object.hasOwn(facts.config.content.saveOffer?.reasons ?? {}, posted)) return posted;
  facts.note('detail', 'cancel_reason_unknown');
  return undefined;
}

/** What a done action's page says: the cancel, or the money on its way back. */
function doneView(
  facts: SubscriberFacts,
  action: DoneAction,
  refunded: string | null,
): SubscriberView {
  const { t } = facts;
  if (action === 'canceled') {
    return {
      kind: 'done',
      title: t('subscriber.done.canceled.title'),
      lead: t('subscriber.done.canceled.lead'),
    };
  }
  return {
    kind: 'done',
    title: t('subscriber.done.refunded.title'),
    lead:
      refunded === null
        ? t('subscriber.done.refunded.lead_plain')
        : t('subscriber.done.refunded.lead', { amount: refunded }),
  };
}

/**
 * The money-back claim's confirm (docs/payments.md, "The subscriber's page"), shown for the
 * claim's first press: what goes back, read fresh from the product API, while the guarantee's
 * terms still apply, and that the add-ons still renewing are not part of it. Nothing is claimed
 * here; the confirm's own post (CLAIM_CONFIRM_FIELD) does.
 */
async function claimConfirmPage(
  facts: SubscriberFacts,
  token: string,
  portal: SubscriberPortal,
  now: number,
): Promise<Response> {
  const read = await portal.read();
  if (!read.ok) return refusedPage(facts, read.reason === 'unknown' ? 'unknown' : 'unavailable');
  const subscription = read.value;
  const terms = {
    status: subscription.status,
    chargedAt: subscription.charged_at,
    paidAmount: subscription.paid_amount,
  };
  if (!guaranteeApplies(terms, now)) return refusedPage(facts, 'not_applicable');
  facts.note('detail', 'guarantee_confirm_shown');
  const paths = pathsOf(token);
  return pageOf(facts, {
    kind: 'claim_confirm',
    action: paths.guarantee,
    back: paths.base,
    amount: moneyOf(subscription.paid_amount, subscription.currency, facts.language),
    addOnsNote: addOnsNote(facts, subscription),
  });
}

/**
 * A refund cannot be taken back: a claim's post without its confirm's field (the overview's
 * button, a replayed first press, a post of anything else) answers the confirm; null for the
 * confirm's own post, which claims.
 */
async function claimAsked(
  request: {
    param(name: 'token'): string | undefined;
    parseBody(): Promise<Record<string, unknown>>;
  },
  facts: SubscriberFacts,
  portal: SubscriberPortal,
  now: number,
): Promise<Response | null> {
  const form = await request.parseBody();
  if (form[CLAIM_CONFIRM_FIELD.name] === CLAIM_CONFIRM_FIELD.value) return null;
  return claimConfirmPage(facts, request.param('token') ?? '', portal, now);
}

/**
 * What opening a link for an action reads of its request: the bindings, the address, the
 * link's token, and the visit its handler made (../request/visit.ts).
 */
interface LinkRequest {
  env: SubscriberEnv['Bindings'];
  req: { header(name: string): string | undefined; param(name: 'token'): string | undefined };
  visit: Visit;
}

/** A handler's request as opening a link reads it, with the visit the handler made. */
function linkRequestOf(c: Omit<LinkRequest, 'visit'>, visit: Visit): LinkRequest {
  return { env: c.env, req: c.req, visit };
}

/** A link opened for an action: its checked link, its token, the product API, the time. */
interface OpenedFor {
  link: SubscriberLink;
  token: string;
  portal: SubscriberPortal;
  at: number;
}

/**
 * The request's link opened for one of a manage link's actions (a cancel, a claim, a save
 * offer), with the product API as its page sees it; else the refusal's page (a recovery link
 * manages nothing).
 */
async function openManageLink(
  c: LinkRequest,
  facts: SubscriberFacts,
  deps: { portalFetch?: PortalFetch; now: () => number },
): Promise<OpenedFor | Response> {
  const token = c.req.param('token') ?? '';
  const opened = await openLink(c, facts, token, deps.now());
  if (!opened.ok) return refusedPage(facts, opened.refusal);
  if (opened.link.purpose !== 'manage') return refusedPage(facts, 'invalid');
  const portal = subscriberPortal(c.visit, opened.link, deps);
  return { link: opened.link, token, portal, at: deps.now() };
}

/**
 * The cancel's one confirm: the marketer's save offer unless it was shown already (`offered`
 * false: Keep my subscription comes back with `offer=shown`, and the next cancel has none),
 * counted shown in its arm, with its action's button where it fits; the reasons for leaving;
 * and that the add-ons still renewing go on, as nothing but their own cancel stops them.
 */
async function cancelConfirmPage(
  c: PageRequest,
  facts: SubscriberFacts,
  opened: OpenedFor,
  offered: boolean,
): Promise<Response> {
  const paths = pathsOf(opened.token);
  const subscriptionId = opened.link.subscriptionId;
  const shown = offered ? countSaveOffer(c, facts, subscriptionId, 'shown', opened.at) : null;
  // Read once: the offer's action is fitted to it, and the add-ons still renewing are named.
  const read = await opened.portal.read();
  const take = shown?.offer ? await fittingActionOf(facts, shown.arm, async () => read) : null;
  const saveOffer = shown?.offer
    ? { ...shown.offer, take: take && { action: paths.saveOffer, label: take.label } }
    : null;
  const back = saveOffer ? `${paths.base}?offer=shown` : paths.base;
  const reasons = reasonsIn(facts.config.content, facts.language);
  // A read that fails leaves the note out, not the cancel: the page listed the add-ons already.
  const addOnsNoted = read.ok ? addOnsNote(facts, read.value) : null;
  const view = { action: paths.cancel, back, saveOffer, reasons, addOnsNote: addOnsNoted };
  return pageOf(facts, { kind: 'confirm', ...view });
}

type Act = (
  portal: SubscriberPortal,
  reason: string | undefined,
) => ReturnType<SubscriberPortal['cancel']>;

/**
 * Takes the save offer's action the subscription's arm offers (docs/marketers.md, "The save
 * offer before a cancel"), if it fits the subscription now, through the product API: counted in
 * the arm as taken once, logged (`save_offer_taken`), and the link stays open, for the
 * subscription goes on. The product API takes one offer a year per subscription (409).
 */
async function takeSaveOffer(
  c: PageRequest,
  facts: SubscriberFacts,
  opened: OpenedFor,
): Promise<Response> {
  const { link, portal } = opened;
  const arm = saveOfferArm(facts.config.experiments, link.subscriptionId);
  // Only an offer the confirm can show in this language is taken: none is offered without words.
  const shown = saveOfferIn(facts.config.content, facts.language, arm?.offer ?? null);
  if (shown === null) return refusedPage(facts, 'not_applicable');
  // A read that fails is the product API's trouble, to try again, not an offer that does not fit.
  const read = await portal.read();
  if (!read.ok) return refusedPage(facts, read.reason === 'unknown' ? 'unknown' : 'unavailable');
  const fitting = await fittingActionOf(facts, arm, async () => read);
  if (fitting === null) return refusedPage(facts, 'not_applicable');
  const taken = await portal.takeSaveOffer(fitting.request);
  if (!taken.ok) {
    if (taken.reason === 'unknown') return refusedPage(facts, 'unknown');
    if (taken.reason === 'refused') {
      return refusedPage(facts, taken.code === 'offer_taken' ? 'offer_taken' : 'not_applicable');
    }
    return refusedPage(facts, 'unavailable');
  }
  countSaveOffer(c, facts, link.subscriptionId, 'took_action', opened.at);
  logLine({
    id: facts.requestId,
    event: 'save_offer_taken',
    link: link.linkId,
    action: fitting.action.kind,
  });
  const back = `${pathsOf(opened.token).base}?offer=shown`;
  return pageOf(facts, takenView(facts, taken.value, back));
}

/** One JSON post of the card form, for a link already checked. */
type CardPost = (post: SubscriberCardPost, deps: CardPostDeps) => Promise<Response>;

/**
 * Does one action of a link (a cancel, a claim) with the product API, then records the link as
 * done, so it opens nothing more. A refusal for good is the page's refusal; a product API that
 * cannot answer leaves the link as it was, to try again.
 */
async function actOnce(
  facts: SubscriberFacts,
  link: SubscriberLink,
  action: DoneAction,
  act: Act,
  deps: {
    portal: SubscriberPortal;
    env: SubscriberEnv['Bindings'];
    now: number;
    reason?: string;
  },
): Promise<Response> {
  const result = await act(deps.portal, deps.reason);
  if (!result.ok) {
    if (result.reason === 'unknown') return refusedPage(facts, 'unknown');
    if (result.reason === 'refused' && action === 'refunded') {
      return refusedPage(facts, 'not_applicable');
    }
    return refusedPage(facts, 'unavailable');
  }
  await markLinkDone(deps.env, link, action, deps.now, facts.requestId);
  logLine({
    id: facts.requestId,
    event: `subscriber_${action}`,
    link: link.linkId,
    ...(deps.reason === undefined ? {} : { reason: deps.reason }),
  });
  const refunded = moneyOf(result.value.refunded_amount, result.value.currency, facts.language);
  return pageOf(facts, doneView(facts, action, refunded));
}

/** A card post's link refused, in JSON: the card form says so. */
function cardPostRefused(facts: SubscriberFacts, refusal: Refusal): Response {
  facts.note('error', `subscriber_${refusal}`);
  return Response.json(
    { error: refusal },
    { status: REFUSALS[refusal], headers: { 'cache-control': 'no-store' } },
  );
}

/**
 * The card form's JSON posts, each through the charge pipeline (./subscriber-charge.ts): a
 * recovery link pays what is due, a manage link updates the card.
 */
function addCardPosts(
  routes: Hono<SubscriberEnv>,
  options: SubscriberRouteOptions,
  deps: { portalFetch?: PortalFetch; now: () => number },
): void {
  const cardPosts = [
    ['/:token/pay-due', payDueAnswer],
    ['/:token/card', cardUpdateAnswer],
  ] as const satisfies readonly (readonly [string, CardPost])[];
  for (const [path, post] of cardPosts) {
    routes.post(path, async (c) => {
      const facts = subscriberFactsOf(c);
      const opened = await openLink(c, facts, c.req.param('token') ?? '', deps.now());
      if (!opened.ok) return cardPostRefused(facts, opened.refusal);
      const subject = { runs: c, env: c.env, facts, request: c.req.raw, link: opened.link };
      return post(subject, {
        portal: subscriberPortal(visitOf(c), opened.link, deps),
        fingerprint: options.cardFingerprint,
        now: deps.now(),
        watch: options.watchCharge,
      });
    });
  }
}

/** A link opened for one of its add-on's actions: the add-on as the link's read lists it. */
interface AddOnOpened extends OpenedFor {
  addOn: SubscriptionAddOn;
  /** The page of the link, where the add-on's pages lead back to. */
  base: string;
}

/**
 * The request's manage link opened for an action of its add-on `addOnId` (./add-ons.ts): the
 * link names the main subscription only, so its read, fresh from the product API, must list the
 * add-on; else 404 `unknown`, and no action is asked of the product API (a forged or another
 * buyer's id acts on nothing).
 */
async function openAddOn(
  c: LinkRequest,
  facts: SubscriberFacts,
  addOnId: string,
  deps: { portalFetch?: PortalFetch; now: () => number },
): Promise<AddOnOpened | Response> {
  const opened = await openManageLink(c, facts, deps);
  if (opened instanceof Response) return opened;
  const read = await opened.portal.read();
  if (!read.ok) return refusedPage(facts, read.reason === 'unknown' ? 'unknown' : 'unavailable');
  const addOn = addOnIn(read.value, addOnId);
  if (addOn === null) {
    facts.note('detail', 'add_on_not_listed');
    return refusedPage(facts, 'unknown');
  }
  return { ...opened, addOn, base: pathsOf(opened.token).base };
}

/** Back to the page (303), where an add-on that no longer renews shows how it ends. */
function backToPage(base: string): Response {
  return new Response(null, { status: 303, headers: { location: base, ...PAGE_HEADERS } });
}

/**
 * Cancels the add-on, or claims its money back, with the product API under the link's key for
 * that add-on (./subscriber-portal.ts). The link is not spent: it still manages the plan, and
 * the done page leads back to it.
 */
async function actOnAddOn(
  facts: SubscriberFacts,
  opened: AddOnOpened,
  action: 'canceled' | 'refunded',
  through: { visit: Visit; deps: { portalFetch?: PortalFetch; now: () => number } },
): Promise<Response> {
  const { addOn, link } = opened;
  const portal = subscriberPortal(through.visit, link, through.deps, addOn.subscription_id);
  const result = action === 'canceled' ? await portal.cancel() : await portal.claimGuarantee();
  if (!result.ok) {
    if (result.reason === 'unknown') return refusedPage(facts, 'unknown');
    if (result.reason === 'refused' && action === 'refunded') {
      return refusedPage(facts, 'not_applicable');
    }
    return refusedPage(facts, 'unavailable');
  }
  logLine({ id: facts.requestId, event: `subscriber_add_on_${action}`, link: link.linkId });
  const refunded = moneyOf(result.value.refunded_amount, result.value.currency, facts.language);
  return pageOf(facts, addOnDoneView(facts, { action, addOn, refunded }, opened.base));
}

/**
 * An add-on's own paths, for a manage link: `GET …/add-ons/<id>/cancel` its one confirm, and
 * `POST` it cancels; `POST …/add-ons/<id>/guarantee` answers the claim's confirm, and with its
 * confirm field claims, while the guarantee's terms apply to the add-on (422 otherwise).
 */
function addAddOnRoutes(
  routes: Hono<SubscriberEnv>,
  deps: { portalFetch?: PortalFetch; now: () => number },
): void {
  const path = '/:token/add-ons/:addOnId';
  routes.get(`${path}/cancel`, async (c) => {
    const facts = subscriberFactsOf(c);
    const request = linkRequestOf(c, visitOf(c));
    const opened = await openAddOn(request, facts, c.req.param('addOnId'), deps);
    if (opened instanceof Response) return opened;
    if (opened.addOn.status !== 'active') return backToPage(opened.base);
    return pageOf(facts, addOnCancelConfirm(facts, opened.addOn, opened.base));
  });
  routes.post(`${path}/cancel`, async (c) => {
    const facts = subscriberFactsOf(c);
    const request = linkRequestOf(c, visitOf(c));
    const opened = await openAddOn(request, facts, c.req.param('addOnId'), deps);
    if (opened instanceof Response) return opened;
    // A second press, after the first canceled it: the page says it is canceled.
    if (opened.addOn.status !== 'active') return backToPage(opened.base);
    return actOnAddOn(facts, opened, 'canceled', { visit: request.visit, deps });
  });
  routes.post(`${path}/guarantee`, async (c) => {
    const facts = subscriberFactsOf(c);
    const request = linkRequestOf(c, visitOf(c));
    const opened = await openAddOn(request, facts, c.req.param('addOnId'), deps);
    if (opened instanceof Response) return opened;
    if (!addOnGuaranteeApplies(opened.addOn, deps.now())) {
      return refusedPage(facts, 'not_applicable');
    }
    // A refund cannot be taken back: only the confirm's own post claims, as the plan's.
    const form = await c.req.parseBody();
    if (form[CLAIM_CONFIRM_FIELD.name] !== CLAIM_CONFIRM_FIELD.value) {
      facts.note('detail', 'guarantee_confirm_shown');
      return pageOf(facts, addOnClaimConfirm(facts, opened.addOn, opened.base));
    }
    return actOnAddOn(facts, opened, 'refunded', { visit: request.visit, deps });
  });
}

/**
 * `/subscription/<token>` (docs/payments.md, "The subscriber's page"): `GET` the subscription
 * and its actions; `GET …/cancel` the one confirm (with the marketer's save offer, once, and
 * its reasons for leaving); `POST …/save-offer` takes the offer's action instead;
 * `POST …/guarantee` without its confirm field the claim's one confirm;
 * `POST …/cancel` and `POST …/guarantee` the actions, from this page only (the same-origin rule),
 * each a product API call (./subscriber-portal.ts), after which the link opens nothing more. A
 * manage link may do all of it, and `POST …/card` (JSON, ./card-update-route.ts) updates the
 * card without spending the link; a recovery link shows the subscription with what is due, and
 * `POST …/pay-due` (JSON, ./pay-due-route.ts) pays it, as a manage link's page does while
 * something is due (without spending that link). A manage link also cancels or refunds each
 * renewing add-on its subscription's read lists, on its own, without spending the link
 * (`…/add-ons/<add-on id>/cancel`, `…/add-ons/<add-on id>/guarantee`; ./add-ons.ts).
 */
export function subscriberRoutes(options: SubscriberRouteOptions = {}): Hono<SubscriberEnv> {
  const now = options.now ?? Date.now;
  const deps = { portalFetch: options.portalFetch, now };
  const routes = new Hono<SubscriberEnv>();
  routes.post('/:token/*', formOriginOnly(), formBodyLimit(FORM_MAX_BYTES));

  routes.get('/:token', async (c) => {
    const facts = subscriberFactsOf(c);
    const token = c.req.param('token');
    const opened = await openLink(c, facts, token, now());
    if (!opened.ok) return refusedPage(facts, opened.refusal);
    const read = await subscriberPortal(visitOf(c), opened.link, deps).read();
    if (!read.ok) return refusedPage(facts, read.reason === 'unknown' ? 'unknown' : 'unavailable');
    const offerShown = c.req.query('offer') === 'shown';
    if (offerShown) countSaveOffer(c, facts, opened.link.subscriptionId, 'chose_keep', now());
    const view = overviewOf(facts, { link: opened.link, token, offerShown }, read.value, now());
    return pageOf(facts, view, 200, isProduction(c.env));
  });
  routes.get('/:token/cancel', async (c) => {
    const facts = subscriberFactsOf(c);
    const opened = await openManageLink(linkRequestOf(c, visitOf(c)), facts, deps);
    if (opened instanceof Response) return opened;
    return cancelConfirmPage(c, facts, opened, c.req.query('offer') !== 'shown');
  });
  routes.post('/:token/save-offer', async (c) => {
    const facts = subscriberFactsOf(c);
    const opened = await openManageLink(linkRequestOf(c, visitOf(c)), facts, deps);
    if (opened instanceof Response) return opened;
    return takeSaveOffer(c, facts, opened);
  });
  const actions: readonly (readonly [string, DoneAction, Act])[] = [
    ['/:token/cancel', 'canceled', (portal, reason) => portal.cancel(reason)],
    ['/:token/guarantee', 'refunded', (portal) => portal.claimGuarantee()],
  ];
  addCardPosts(routes, options, deps);
  addAddOnRoutes(routes, deps);
  for (const [path, action, act] of actions) {
    routes.post(path, async (c) => {
      const facts = subscriberFactsOf(c);
      const opened = await openManageLink(linkRequestOf(c, visitOf(c)), facts, deps);
      if (opened instanceof Response) return opened;
      const { portal } = opened;
      const asked = action === 'refunded' && (await claimAsked(c.req, facts, portal, now()));
      if (asked) return asked;
      const reason =
        action === 'canceled' ? leavingReason(facts, await c.req.parseBody()) : undefined;
      const acting = { portal, env: c.env, now: now(), reason };
      const answer = await actOnce(facts, opened.link, action, act, acting);
      // A cancel that went through ends the subscription's keeping in its save offer test.
      if (action === 'canceled' && answer.ok) {
        countSaveOffer(c, facts, opened.link.subscriptionId, 'cancelled', now(), reason);
      }
      return answer;
    });
  }
  return routes;
}

import type { SaveOfferTakeAnswer, SaveOfferTakeRequest } from '../shared/api/subscriber-calls';
import { isPlanId, planById } from '../shared/plans/catalogue';
import { toMajorUnits } from '../shared/plans/money';
import { addUtcMonths, firstRenewalAt } from '../shared/plans/renewal';
import { cheaperPlanOf } from '../shared/plans/save-offer-actions';
import { idempotencyConflict } from './charges';
import { renewalAfterPaidDue } from './pay-due';
import { PortalError } from './portal-error';
import {
  type RenewalTerms,
  renewalTermsOf,
  renewsAfterPause,
  type TakenOffer,
} from './renewal-terms';
import { findRenewalDue, type RenewalDue } from './store/renewal-dues';
import {
  findChargedBackAt,
  findSaveOffer,
  keepSaveOffer,
  listSaveOffersOf,
  type SaveOfferRow,
} from './store/save-offers';
import type { SubscriberRow } from './store/subscriber-actions';
import { listPayments, type PaymentListing, totalsOf } from './store/subscription-payments';
import { type SubscriptionState, subscriptionStateOf } from './subscription-state';
import { prefixedId } from './tokens';

/**
 * The save offer's actions as the product API applies them (docs/product-api.md, "Save offer
 * actions"; POST /subscriptions/{id}/save-offer): a discount off the next renewals, a pause of
 * the renewals, or a switch to a cheaper plan of the same kind, each changing what the read
 * answers and what `npm run portal -- renew` charges (portal/renewal-terms.ts). One offer a
 * subscription within 12 months; the same Idempotency-Key answers the first call's answer again.
 */

/** A subscription takes at most one save offer within this many months. */
const OFFER_EVERY_MONTHS = 12;

/** The states in which a subscription still renews (portal/subscription-state.ts). */
const RENEWING: ReadonlySet<SubscriptionState> = new Set(['active', 'trialing', 'past_due']);

function isRenewal(payment: PaymentListing): boolean {
  return payment.kind === 'renewal' || payment.kind === 'recovery';
}

/** The subscription's renewal terms now: its plan and coupon, the offers taken, renewals paid. */
export async function renewalTermsFor(
  db: D1Database,
  subscription: { id: string; planId: string; coupon: string | null },
): Promise<RenewalTerms> {
  const [offers, payments] = await Promise.all([
    listSaveOffersOf(db, subscription.id),
    listPayments(db, subscription.id),
  ]);
  const renewalTimes = payments.filter(isRenewal).map((payment) => payment.occurred_at);
  return renewalTermsOf(subscription, offers, renewalTimes);
}

/**
 * The next renewal on the subscription's schedule (epoch ms), before any pause; null for a plan
 * that never renews. A paid failed renewal starts its period at its payment (portal/pay-due.ts);
 * before any, the first charge's terms name the first renewal.
 */
export function scheduledRenewalAt(
  row: Pick<SubscriberRow, 'planId' | 'createdAt'>,
  due: RenewalDue | null,
): number | null {
  const recovered = due?.paidAt ? renewalAfterPaidDue(row.planId, due.paidAt) : null;
  if (recovered !== null) return Date.parse(recovered);
  const plan = isPlanId(row.planId) ? planById(row.planId) : null;
  return plan ? firstRenewalAt(plan, Date.parse(row.createdAt)) : null;
}

/** What a save offer needs to know of the subscription, read at once. */
interface Subject {
  state: SubscriptionState;
  offers: SaveOfferRow[];
  renewalTimes: string[];
  terms: RenewalTerms;
  /** The next renewal on the schedule (epoch ms), and whether a failed one is still due. */
  scheduled: number | null;
  dueOpen: boolean;
}

async function subjectOf(db: D1Database, row: SubscriberRow, now: number): Promise<Subject> {
  const [offers, payments, due, chargedBackAt] = await Promise.all([
    listSaveOffersOf(db, row.id),
    listPayments(db, row.id),
    findRenewalDue(db, row.id),
    findChargedBackAt(db, row.id),
  ]);
  const renewalTimes = payments.filter(isRenewal).map((payment) => payment.occurred_at);
  const dueOpen = due !== null && due.paidAt === null;
  const state = subscriptionStateOf(
    {
      ...row,
      chargedBackAt,
      dueOpen,
      renewals: renewalTimes.length,
      totals: totalsOf(payments),
    },
    now,
  );
  const terms = renewalTermsOf(row, offers, renewalTimes);
  return { state, offers, renewalTimes, terms, scheduled: scheduledRenewalAt(row, due), dueOpen };
}

function notApplicable(message: string): PortalError {
  return new PortalError(422, 'not_applicable', message);
}

/**
 * The first renewal on the schedule after `now`: the emulator keeps the schedule of the first
 * charge (or of the last paid due) and does not move it at each renewal it records, so a date
 * already past stands for the renewal whole periods after it.
 */
function upcomingRenewal(scheduled: number, months: number, now: number): number {
  let at = scheduled;
  for (let periods = 1; at <= now; periods++) at = addUtcMonths(scheduled, periods * months);
  return at;
}

/** The plan a switch moves to: a cheaper plan of the same kind (shared/plans/save-offer-actions.ts). */
function switchTarget(terms: RenewalTerms, planId: string): string {
  const target = isPlanId(planId) ? cheaperPlanOf(terms.planId, planById(planId).family) : null;
  if (target?.id !== planId) {
    throw notApplicable(
      `Plan ${planId} is not a cheaper plan of the same kind as ${terms.planId}.`,
    );
  }
  return target.id;
}

/** What the offer changes: the plan it renews on after it, and a pause's end (ISO 8601). */
function effectOf(
  request: SaveOfferTakeRequest,
  subject: Subject,
  now: number,
): Pick<TakenOffer, 'planAfter' | 'pausedUntil'> {
  const { terms, scheduled } = subject;
  if (request.action === 'switch') {
    return { planAfter: switchTarget(terms, request.plan_id), pausedUntil: null };
  }
  if (request.action === 'discount') return { planAfter: terms.planId, pausedUntil: null };
  const months = terms.plan?.billing.kind === 'recurring' ? terms.plan.billing.months : 1;
  const next = upcomingRenewal(scheduled ?? now, months, now);
  const pausedUntil = new Date(addUtcMonths(next, request.months)).toISOString();
  return { planAfter: terms.planId, pausedUntil };
}

/**
 * The answer to the offer: the subscription after it, as the read will answer it from then on
 * (its next renewal after a pause's end, none named while a failed one is due).
 */
function answerOf(terms: RenewalTerms, subject: Subject, now: number): SaveOfferTakeAnswer {
  const renewsAt = subject.dueOpen ? null : renewsAfterPause(subject.scheduled, terms.pausedUntil);
  const paused = terms.pausedUntil !== null && Date.parse(terms.pausedUntil) > now;
  return {
    data: {
      status: 'active',
      renews_at: renewsAt === null ? null : new Date(renewsAt).toISOString(),
      renewal_amount:
        terms.plan && terms.amount !== null
          ? toMajorUnits(terms.amount, terms.plan.currency)
          : null,
      currency: terms.plan?.currency ?? null,
      plan_id: terms.planId,
      paused_until: paused ? terms.pausedUntil : null,
    },
  };
}

/** The offer `request` asks for, kept as a row with the answer it gets. */
function offerOf(
  row: SubscriberRow,
  request: SaveOfferTakeRequest,
  key: string,
  subject: Subject,
  now: number,
): SaveOfferRow {
  const offer = {
    id: prefixedId('sof'),
    subscriptionId: row.id,
    action: request.action,
    percentOff: request.action === 'discount' ? request.percent_off : null,
    renewals: request.action === 'discount' ? request.renewals : null,
    months: request.action === 'pause' ? request.months : null,
    planBefore: subject.terms.planId,
    ...effectOf(request, subject, now),
    takenAt: new Date(now).toISOString(),
    idempotencyKey: key,
    brand: request.brand ?? null,
    language: request.language ?? null,
    experiment: request.experiment ?? null,
    variant: request.variant ?? null,
  };
  const after = renewalTermsOf(row, [...subject.offers, offer], subject.renewalTimes);
  return { ...offer, answer: answerOf(after, subject, now) };
}

/** A repeat under the key the offer was taken with: its answer again, if it asks the same. */
function replayOf(earlier: SaveOfferRow, request: SaveOfferTakeRequest): SaveOfferTakeAnswer {
  const asked =
    request.action === 'discount'
      ? earlier.percentOff === request.percent_off && earlier.renewals === request.renewals
      : request.action === 'pause'
        ? earlier.months === request.months
        : earlier.planAfter === request.plan_id;
  if (earlier.action !== request.action || !asked) throw idempotencyConflict();
  return earlier.answer;
}

function offerTaken(): PortalError {
  return new PortalError(
    409,
    'offer_taken',
    'This subscription took a save offer within the last 12 months.',
  );
}

/**
 * POST /subscriptions/{id}/save-offer: takes the offer `request` names on `row`, once per
 * `key`. 422 `not_applicable` for a subscription that does not renew (canceled, refunded,
 * charged back, one-time) or a switch to a plan that is not a cheaper one of the same kind; 409
 * `offer_taken` when it took one within 12 months; the same key answers the first answer again
 * (another request under it is 422 `idempotency_conflict`).
 */
export async function takeSaveOffer(
  db: D1Database,
  row: SubscriberRow,
  request: SaveOfferTakeRequest,
  key: string,
  now: number = Date.now(),
): Promise<SaveOfferTakeAnswer> {
  const earlier = await findSaveOffer(db, row.id, key);
  if (earlier) return replayOf(earlier, request);
  const subject = await subjectOf(db, row, now);
  if (!RENEWING.has(subject.state) || subject.terms.plan?.billing.kind !== 'recurring') {
    throw notApplicable('This subscription does not renew.');
  }
  const since = new Date(addUtcMonths(now, -OFFER_EVERY_MONTHS)).toISOString();
  if (subject.offers.some((offer) => offer.takenAt > since)) throw offerTaken();
  const offer = offerOf(row, request, key, subject, now);
  if (await keepSaveOffer(db, offer, since)) return offer.answer;
  // Another call took one a moment before: this key's is its answer; another key's, refused.
  const first = await findSaveOffer(db, row.id, key);
  if (first) return replayOf(first, request);
  throw offerTaken();
}

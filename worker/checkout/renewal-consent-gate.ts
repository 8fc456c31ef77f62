import type { RenewalConsent } from '../../shared/api/contract';
import { logWarning } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import {
  type ConsentTerms,
  consentTermsOf,
  sameConsentTerms,
} from '../../shared/plans/consent-terms';
import { couponByCode } from '../../shared/plans/coupons';
import { RENEWAL_CONSENT_VERSION, renewalConsentRule } from '../../shared/plans/renewal-consent';
import { ROUTE_LANGUAGES } from '../../shared/routing';
import { type ApiRefusal, refusal } from '../http/api-json';

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
   * Whether the visitor's offer countdown has ended (./offer.ts), asked only of a
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

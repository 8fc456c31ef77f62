import type { RenewalConsent } from '../../shared/api/contract';
import { logWarning } from '../../shared/log';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { RENEWAL_CONSENT_VERSION, renewalConsentRule } from '../../shared/plans/renewal-consent';
import { ROUTE_LANGUAGES } from '../../shared/routing';
import { type ApiRefusal, refusal } from '../http/api-error';

/** A charge's body as the contract parsed it, with the consent the page sent, if any. */
interface ChargeBody {
  renewal_consent?: RenewalConsent | null;
  [field: string]: unknown;
}

/** Whether the page's consent names the wording in force, in a language the pages speak. */
function currentConsent(consent: RenewalConsent | null | undefined): RenewalConsent | null {
  if (!consent || consent.text_version !== RENEWAL_CONSENT_VERSION) return null;
  return (ROUTE_LANGUAGES as readonly string[]).includes(consent.language) ? consent : null;
}

/**
 * The renewal consent of a charge of a plan that renews (shared/plans/renewal-consent.ts): where
 * the visitor's country asks for it, a charge without the box ticked for the wording in force is
 * refused before the product API is called (the page cannot skip the box by posting itself);
 * a consent given is stamped with the worker's clock and forwarded as `renewal_consent`, and one
 * that names another wording is dropped. An upsell that renews is a subscription of its own,
 * agreed to on its own screen though the card is already on file; one-time payments (the guide)
 * pass as they are.
 */
export function renewalConsentGate(
  request: { country: string | null; planId: string | null; requestId: string; now: number },
  body: unknown,
): { ok: true; body: unknown } | { ok: false; refusal: ApiRefusal } {
  const { planId } = request;
  if (planId === null || !isPlanId(planId)) return { ok: true, body };
  const plan = planById(planId);
  if (plan.billing.kind !== 'recurring') return { ok: true, body };
  const { renewal_consent: sent, ...rest } = body as ChargeBody;
  const given = currentConsent(sent);
  if (given) {
    const stamped: RenewalConsent = {
      text_version: given.text_version,
      language: given.language,
      accepted_at: new Date(request.now).toISOString(),
    };
    return { ok: true, body: { ...rest, renewal_consent: stamped } };
  }
  if (!renewalConsentRule(request.country).checkbox) return { ok: true, body: rest };
  logWarning('renewal_consent_required', {
    id: request.requestId,
    plan: planId,
    country: request.country,
    sent: sent ? String(sent.text_version).slice(0, 80) : null,
  });
  return { ok: false, refusal: refusal('renewal_consent_required') };
}

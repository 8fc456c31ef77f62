import { atom } from 'nanostores';
import { type ConsentTerms, sameConsentTerms } from '../../shared/plans/consent-terms';
import type { PurchaseRequest } from '../payments/purchase-types';

/**
 * The renewal consent of the checkout on this page (shared/plans/renewal-consent.ts): null where
 * the visitor's country asks for none; else the wording's version and language, and the terms the
 * box was ticked beside (null while unticked). Not persisted: a reload shows the box unticked
 * again, as the law wants it given, not presumed.
 */
export const $renewalConsent = atom<{
  version: string;
  language: string;
  agreed: ConsentTerms | null;
} | null>(null);

/**
 * What a charge sends of it: the ticked wording with the terms it was ticked for, else nothing.
 * The worker refuses it when they are not the terms it charges.
 */
export function renewalConsentToSend(): PurchaseRequest['renewalConsent'] {
  const consent = $renewalConsent.get();
  return consent?.agreed
    ? { text_version: consent.version, language: consent.language, terms: consent.agreed }
    : null;
}

/**
 * Whether Pay may go on for a press that charges `shown`: none is asked for, or the box is ticked
 * for these very terms (a box ticked beside a $6.99 trial agrees to nothing once Pay says $39.99).
 */
export function renewalConsentGiven(shown: ConsentTerms | null | undefined): boolean {
  const consent = $renewalConsent.get();
  return consent === null || sameConsentTerms(consent.agreed, shown);
}

/** The box ticked beside `shown`, or unticked. */
export function tickRenewalConsent(shown: ConsentTerms | null, ticked: boolean): void {
  const consent = $renewalConsent.get();
  if (consent) $renewalConsent.set({ ...consent, agreed: ticked ? shown : null });
}

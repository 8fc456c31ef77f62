import { atom } from 'nanostores';
import type { PurchaseRequest } from '../payments/purchase-types';

/**
 * The renewal consent of the checkout on this page (shared/plans/renewal-consent.ts): null where
 * the visitor's country asks for none; else the wording's version and language, and whether the
 * box is ticked. Not persisted: a reload shows the box unticked again, as the law wants it
 * given, not presumed.
 */
export const $renewalConsent = atom<{
  version: string;
  language: string;
  ticked: boolean;
} | null>(null);

/** What a charge sends of it: the ticked wording, else nothing. */
export function renewalConsentToSend(): PurchaseRequest['renewalConsent'] {
  const consent = $renewalConsent.get();
  return consent?.ticked ? { text_version: consent.version, language: consent.language } : null;
}

/** Whether Pay may go on: the box is ticked, or none is asked for. */
export function renewalConsentGiven(): boolean {
  const consent = $renewalConsent.get();
  return consent === null || consent.ticked;
}

import type { TFunction } from 'i18next';
import type { CardAdvice, CardEntryCopy } from '../../islands/kit/CardEntry';
import { CARD_REFUSAL_KEYS, errorTranslationKey } from '../../shared/api/error-text';
import { DECLINE_CLASSES, type DeclineClass } from '../../shared/decline-class';
import { DECLINE_ADVICE } from '../after/decline-advice';
import { cardFieldLabels, cardFieldMessages, gatewayCopy } from './payment-method-props';

/** The declined page's advice for every class, in words (screens/after/decline-advice.ts). */
function adviceCopy(t: TFunction): Record<DeclineClass, CardAdvice> {
  const entries = DECLINE_CLASSES.map((declineClass) => {
    const advice = DECLINE_ADVICE[declineClass];
    const lead = t(advice.lead ?? 'screens.payment_declined.lead');
    return [declineClass, { lead, hints: advice.hints.map((hint) => t(hint)) }] as const;
  });
  return Object.fromEntries(entries) as Record<DeclineClass, CardAdvice>;
}

/**
 * The card form's words (islands/kit/CardEntry.tsx), the checkout's: the subscriber's page's
 * Pay what is due and Update card, and an upsell's card typed again.
 */
export function cardEntryCopy(t: TFunction): CardEntryCopy {
  return {
    cardTitle: t('plans.card.title'),
    fields: cardFieldLabels(t),
    namePlaceholder: t('plans.card.name_placeholder'),
    loading: t('plans.card.loading'),
    hintsLabel: t('after.declined.hints_label'),
    advice: adviceCopy(t),
    noAnswer: t('errors.payment_no_answer'),
    refusals: Object.fromEntries(
      Object.entries(CARD_REFUSAL_KEYS).map(([code, key]) => [code, t(errorTranslationKey(key))]),
    ),
    problems: {
      card_form_unavailable: t('errors.card_form_unavailable'),
      card_form_not_ready: t('errors.card_form_not_ready'),
      payment_not_authenticated: t('errors.payment_not_authenticated'),
      payment_error: t('errors.payment_error'),
    },
    gateway: gatewayCopy(t),
    messages: cardFieldMessages(t),
  };
}

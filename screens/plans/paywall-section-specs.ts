import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { actionSpec, KIT_SECTION_SPECS } from '../kit/section-specs';

/** How a paywall words its benefits: the result paywall's, or around AI-powered location. */
export type PaywallWording = 'win' | 'ai';

/**
 * The sections a paywall (a checkout or a result paywall) may show: its heading (the screen's one
 * h1), the plan picker, the payment (the methods with the card form and Pay, the receipt of the
 * charge) and the support and legal links (where money is taken) are required; the countdown,
 * the located banner, the trial callout, the benefits, the testimonials, the guarantee, the trust
 * labels and the logos of who takes the payment a marketer may reorder, hide or add. The plans' names, prices
 * and disclosures are the plan's own wording (shared/plans/), never a marketer's.
 */
export function paywallSectionSpecs(wording: PaywallWording) {
  return {
    countdown: {
      copy: ['kit.offer.', 'kit.offer_deadline.'],
      maxChars: 40,
    },
    located: KIT_SECTION_SPECS.located,
    heading: {
      copy: ['screens.{screen}.title', 'screens.{screen}.lead', 'plans.checkout.card_lead'],
      maxChars: 160,
      required: true,
    },
    callout: {
      copy: [
        'i18n.trial_days',
        'plans.checkout.trial_text',
        'plans.checkout.paypal_title',
        'plans.checkout.paypal_text',
      ],
      maxChars: 60,
    },
    benefits: {
      copy: ['plans.paywall.benefits_label', `plans.paywall.${wording}.benefits.`],
      maxChars: 80,
    },
    plans: actionSpec('plans.picker.label', 'plans.picker.most_popular', 'plans.picker.save'),
    payment: actionSpec(
      'plans.paywall.cta',
      'plans.combo.cta',
      'plans.pay.button',
      'plans.methods.label',
    ),
    /** What other families say about the app: on no paywall in code, a marketer's to add. */
    testimonials: {
      copy: ['signup.testimonials_label', 'signup.testimonials.'],
      maxChars: 200,
    },
    guarantee: {
      copy: ['plans.guarantee.'],
      maxChars: 120,
    },
    trust: KIT_SECTION_SPECS.trust,
    providers: {
      copy: ['kit.provider.'],
      maxChars: 40,
    },
    support: { ...KIT_SECTION_SPECS.support, required: true },
  } satisfies Record<string, SectionSpec>;
}

export type PaywallSection = keyof ReturnType<typeof paywallSectionSpecs>;

/** The pieces under the payment a checkout and the combo paywall close with. */
const REASSURANCE: Composition<PaywallSection>['sections'] = [
  { kind: 'guarantee' },
  { kind: 'trust' },
  { kind: 'providers' },
  { kind: 'support' },
];

/**
 * A checkout (SPEC.md §2 checkout page content): the offer countdown, the plan with its order
 * summary and disclosure, the payment-method choice with the card form and Pay (SPEC.md §4
 * Payment), and the guarantee. Where it is drawn, the root takes its variant's classes too
 * (checkout--vertical checkout--trial...), as the deployment offers the variant.
 */
export const CHECKOUT_COMPOSITION: Composition<PaywallSection> = {
  className: 'screen checkout',
  sections: [
    { kind: 'countdown' },
    { kind: 'heading' },
    { kind: 'callout' },
    { kind: 'plans' },
    { kind: 'payment' },
    ...REASSURANCE,
  ],
};

/**
 * The result paywalls (SPEC.md §2): the located number, the offer countdown and a picker of the
 * intro plans, whose call to action opens the payment form right here.
 */
export function resultPaywallComposition(wording: PaywallWording): Composition<PaywallSection> {
  return {
    className: `screen paywall paywall--${wording}`,
    sections: [
      { kind: 'countdown' },
      { kind: 'located' },
      { kind: 'heading' },
      { kind: 'benefits' },
      { kind: 'plans' },
      { kind: 'payment' },
      { kind: 'guarantee' },
      { kind: 'trust' },
      { kind: 'support' },
    ],
  };
}

/** The `{hash}` 3-day combo paywall (SPEC.md §2): the 3-day plan with its summary, then pay. */
export const COMBO_COMPOSITION: Composition<PaywallSection> = {
  className: 'screen paywall paywall--combo',
  sections: [
    { kind: 'countdown' },
    { kind: 'heading' },
    { kind: 'plans' },
    { kind: 'payment' },
    ...REASSURANCE,
  ],
};

const paywall = (
  composition: Composition,
  wording: PaywallWording = 'win',
): ComposedDefinition => ({
  slot: 'paywall',
  composition,
  catalogue: paywallSectionSpecs(wording),
});

/** Each paywall's sections: its composition, and the paywall slot's catalogue. */
export const PAYWALL_COMPOSED = {
  checkout_v3_tr: paywall(CHECKOUT_COMPOSITION),
  checkout_h3_pp: paywall(CHECKOUT_COMPOSITION),
  checkout_v3_pp: paywall(CHECKOUT_COMPOSITION),
  checkout_h3_pp_braintree: paywall(CHECKOUT_COMPOSITION),
  paycheck1_pr5_h_win: paywall(resultPaywallComposition('win')),
  paycheck1_pr5_h_ai: paywall(resultPaywallComposition('ai'), 'ai'),
  paycheck_combo_3d: paywall(COMBO_COMPOSITION),
} satisfies Record<string, ComposedDefinition>;

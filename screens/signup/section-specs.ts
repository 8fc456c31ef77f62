import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { KIT_SECTION_SPECS } from '../kit/section-specs';

/**
 * The sections a signup screen may show: its heading (the screen's one h1), the email form and
 * Continue with Google (the two ways the step creates the account, SPEC.md §4 Signup), the
 * privacy note and the support and legal links (what a visitor agrees to, beside the form) are
 * required; the 'number located' banner, the testimonials and the trust labels a marketer may
 * reorder, hide or add.
 */
export const SIGNUP_SECTION_SPECS = {
  located: KIT_SECTION_SPECS.located,
  heading: {
    copy: ['signup.title', 'signup.lead'],
    maxChars: 160,
    required: true,
  },
  email_form: {
    copy: [
      'kit.email.',
      'continue',
      'kit.continue_busy',
      'signup.creating_account',
      'signup.email_taken.',
      'email_error_message_invalid',
      'email_error_message_empty',
    ],
    maxChars: 120,
    required: true,
  },
  google: {
    copy: ['kit.or', 'signup.google.', 'signup.creating_account'],
    maxChars: 120,
    required: true,
  },
  privacy: {
    copy: ['signup.privacy_note'],
    maxChars: 160,
    required: true,
  },
  testimonials: {
    copy: ['signup.testimonials_label', 'signup.testimonials.'],
    maxChars: 200,
  },
  trust: KIT_SECTION_SPECS.trust,
  support: { ...KIT_SECTION_SPECS.support, required: true },
} satisfies Record<string, SectionSpec>;

export type SignupSection = keyof typeof SIGNUP_SECTION_SPECS;

const FORM: Composition<SignupSection>['sections'] = [
  { kind: 'located' },
  { kind: 'heading' },
  { kind: 'email_form' },
  { kind: 'google' },
  { kind: 'privacy' },
];

/** The two signup screens of SPEC.md §2 as code composes them. */
export const SIGNUP_COMPOSITIONS = {
  signup: {
    className: 'screen signup',
    sections: [...FORM, { kind: 'trust' }, { kind: 'support' }],
  },
  /** What other families say about the app, under the form. */
  signup_testim: {
    className: 'screen signup',
    sections: [...FORM, { kind: 'testimonials' }, { kind: 'trust' }, { kind: 'support' }],
  },
} satisfies Record<string, Composition<SignupSection>>;

/** The heading's own keys on signup_testim, which words the screen around the testimonials. */
const TESTIMONIALS_HEADING = ['signup.title_testim', 'signup.lead_testim'];

/** Each signup screen's sections: its composition, and the signup slot's catalogue. */
export const SIGNUP_COMPOSED: Record<keyof typeof SIGNUP_COMPOSITIONS, ComposedDefinition> = {
  signup: {
    slot: 'signup',
    composition: SIGNUP_COMPOSITIONS.signup,
    catalogue: SIGNUP_SECTION_SPECS,
  },
  signup_testim: {
    slot: 'signup',
    composition: SIGNUP_COMPOSITIONS.signup_testim,
    catalogue: {
      ...SIGNUP_SECTION_SPECS,
      heading: { ...SIGNUP_SECTION_SPECS.heading, copy: TESTIMONIALS_HEADING },
    },
  },
};

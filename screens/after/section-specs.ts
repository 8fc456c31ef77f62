import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { actionSpec, KIT_SECTION_SPECS, SCREEN_HEADING_SPEC } from '../kit/section-specs';

/**
 * The sections the success screen may show: its heading (the screen's one h1), the download
 * button with the store badges, the deeplink's QR code, the steps to log in by hand and the order
 * summary (what the visitor was charged, which must stay on the page) are required; the app's
 * pictures and the support links a marketer may reorder or hide. The summary's own wording is
 * the receipt's and stays as the bundled copy says it: only its title is the marketer's.
 */
export const END_SECTION_SPECS = {
  heading: SCREEN_HEADING_SPEC,
  download: actionSpec('after.success.download', 'kit.store.'),
  qr: {
    copy: ['after.success.qr_label', 'after.success.qr_caption', 'after.success.qr_missing'],
    maxChars: 120,
    required: true,
  },
  login_steps: {
    copy: ['after.success.steps_title', 'after.success.steps.'],
    maxChars: 120,
    required: true,
  },
  order_summary: {
    copy: ['plans.receipt.summary_title'],
    maxChars: 60,
    required: true,
  },
  app_screens: {
    copy: ['after.success.app_screens_alt'],
    maxChars: 120,
  },
  support: KIT_SECTION_SPECS.support,
} satisfies Record<string, SectionSpec>;

export type EndSection = keyof typeof END_SECTION_SPECS;

/** 'Your plan awaits' (SPEC.md §2) as code composes it. */
export const SUCCESS_COMPOSITION: Composition<EndSection> = {
  className: 'screen success',
  // On a computer the QR code is the way onto the phone, and logging in by hand the way round
  // it: the two take the end column together (screens/plans/styles/desktop.ts).
  groups: { qr: 'success__aside', login_steps: 'success__aside' },
  sections: [
    { kind: 'heading' },
    { kind: 'download' },
    { kind: 'qr' },
    { kind: 'login_steps' },
    { kind: 'order_summary' },
    { kind: 'app_screens' },
    { kind: 'support' },
  ],
};

/**
 * The sections the 'Payment declined' page may show: its heading (the one h1, saying nothing was
 * charged) and Try again (back to the checkout the visitor paid on) are required; what to check
 * before trying again, the support links and the trust labels a marketer may reorder, hide or add.
 */
export const DECLINED_SECTION_SPECS = {
  heading: SCREEN_HEADING_SPEC,
  hints: {
    copy: ['after.declined.hints_label', 'after.declined.hints.', 'after.decline_advice.'],
    maxChars: 120,
  },
  try_again: actionSpec('after.declined.try_again', 'after.decline_advice.actions.'),
  trust: KIT_SECTION_SPECS.trust,
  support: KIT_SECTION_SPECS.support,
} satisfies Record<string, SectionSpec>;

export type DeclinedSection = keyof typeof DECLINED_SECTION_SPECS;

/** 'Payment declined' (SPEC.md §2, §8) as code composes it. */
export const DECLINED_COMPOSITION: Composition<DeclinedSection> = {
  className: 'screen declined',
  sections: [{ kind: 'heading' }, { kind: 'hints' }, { kind: 'try_again' }, { kind: 'support' }],
};

/** The end screens' sections: each one's composition, and its catalogue in the end slot. */
export const END_COMPOSED = {
  success: { slot: 'end', composition: SUCCESS_COMPOSITION, catalogue: END_SECTION_SPECS },
  payment_declined: {
    slot: 'end',
    composition: DECLINED_COMPOSITION,
    catalogue: DECLINED_SECTION_SPECS,
  },
} satisfies Record<string, ComposedDefinition>;

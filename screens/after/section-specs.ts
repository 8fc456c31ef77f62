import type { ComposedDefinition, Composition, SectionSpec } from '../kit/arrangement';
import { KIT_SECTION_SPECS } from '../kit/section-specs';

/**
 * The sections the success screen may show: its heading (the screen's one h1), the download
 * button with the store badges, the deeplink's QR code, the steps to log in by hand and the order
 * summary (what the visitor was charged, which must stay on the page) are required; the app's
 * pictures and the support links a marketer may reorder or hide. The summary's own wording is
 * the receipt's and stays as the bundled copy says it: only its title is the marketer's.
 */
export const END_SECTION_SPECS = {
  heading: {
    copy: ['screens.{screen}.title', 'screens.{screen}.lead'],
    maxChars: 160,
    required: true,
  },
  download: {
    copy: ['after.success.download', 'kit.store.'],
    maxChars: 40,
    required: true,
  },
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

/** The success screen's sections: its composition, and the end slot's catalogue. */
export const END_COMPOSED = {
  success: { slot: 'end', composition: SUCCESS_COMPOSITION, catalogue: END_SECTION_SPECS },
} satisfies Record<string, ComposedDefinition>;

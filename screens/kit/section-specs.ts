import type { SectionSpec } from './arrangement';

/**
 * The kit's sections that every slot past the landing may show, as data: the 'number located'
 * banner, the trust labels and the support and legal links (SPEC.md §2 Other UI pieces). A slot's
 * catalogue takes them as they are, or marks the links required where its step needs them.
 */
export const KIT_SECTION_SPECS = {
  located: {
    copy: ['kit.located.'],
    maxChars: 40,
  },
  trust: {
    copy: ['kit.trust.'],
    maxChars: 60,
  },
  support: {
    copy: ['kit.support.'],
    maxChars: 60,
  },
} satisfies Record<string, SectionSpec>;

/**
 * A screen's heading as most screens draw it: the one h1 (`screens.<id>.title`) and its lead,
 * required, as every screen has its title. Slots whose heading reads other keys (the landing's
 * badge, sign-up's own) declare their own.
 */
export const SCREEN_HEADING_SPEC = {
  copy: ['screens.{screen}.title', 'screens.{screen}.lead'],
  maxChars: 160,
  required: true,
} satisfies SectionSpec;

/**
 * A section the visitor acts on (a Continue, a Buy, a Skip, the plan picker): required, as the
 * step cannot go on without it, and no longer than a button's label.
 */
export function actionSpec(...copy: string[]): SectionSpec {
  return { copy, maxChars: 40, required: true };
}

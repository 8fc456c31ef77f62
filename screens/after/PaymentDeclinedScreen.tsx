import { ComposedScreen, type SectionKind } from '../kit/composition';
import { SupportLinks } from '../kit/SupportLinks';
import { TrustLabels } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import {
  DECLINED_COMPOSITION,
  DECLINED_SECTION_SPECS,
  type DeclinedSection,
} from './section-specs';

/** SPEC.md §8: what the visitor can check before trying the card again. */
const HINTS = ['balance', 'limits', 'issuer'] as const;

/** The page's sections with what draws each (./section-specs.ts says what each is). */
const DECLINED_SECTIONS: Record<DeclinedSection, SectionKind> = {
  heading: {
    ...DECLINED_SECTION_SPECS.heading,
    render: ({ screen, t }) => (
      <>
        <div className="declined__icon" aria-hidden="true">
          !
        </div>
        <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
        <p className="lead">{t(`screens.${screen}.lead`)}</p>
      </>
    ),
  },
  hints: {
    ...DECLINED_SECTION_SPECS.hints,
    render: ({ t }) => (
      <>
        <h2 className="declined__hints-title">{t('after.declined.hints_label')}</h2>
        <ul className="declined__hints">
          {HINTS.map((hint) => (
            <li key={hint} className="declined__hint">
              {t(`after.declined.hints.${hint}`)}
            </li>
          ))}
        </ul>
      </>
    ),
  },
  try_again: {
    ...DECLINED_SECTION_SPECS.try_again,
    render: ({ t, continueAction, next }) => (
      <Island
        name="TryAgain"
        props={{ action: continueAction, next, label: t('after.declined.try_again') }}
      />
    ),
  },
  trust: { ...DECLINED_SECTION_SPECS.trust, render: ({ t }) => <TrustLabels t={t} /> },
  support: {
    ...DECLINED_SECTION_SPECS.support,
    render: ({ t, brand }) => <SupportLinks t={t} brand={brand} />,
  },
};

/**
 * The 'Payment declined' page (SPEC.md §2, §8) with its three hints. Try again leads back to the
 * checkout the visitor paid on (else the worker's default checkout); nothing was charged. Drawn
 * from its sections as a marketer's content arranges them.
 */
export function PaymentDeclinedScreen(props: ScreenProps) {
  return (
    <ComposedScreen
      props={props}
      composition={DECLINED_COMPOSITION}
      catalogue={DECLINED_SECTIONS}
    />
  );
}

import { chargedFirst } from '../../shared/plans/anchors';
import { planOf } from '../../shared/plans/catalogue';
import { decimalString, formatMoney } from '../../shared/plans/money';
import { composedScreen, type SectionKind } from '../kit/composition';
import { supportSection } from '../kit/SupportLinks';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { BenefitList } from './BenefitList';
import { gatewayCopy, paymentPage } from './payment-method-props';
import { offeredPlans } from './plan-choice-props';
import { planContext, planCopy, taxNoteText, visitorCurrency } from './plan-copy';
import { headingSection } from './ScreenHeading';
import { skipSection } from './SkipForm';
import { upsellCardAgainProps, upsellChargeCopy } from './upsell-charge';
import {
  UPSELL_GUIDE_COMPOSITION,
  UPSELL_GUIDE_SECTION_SPECS,
  type UpsellGuideSection,
} from './upsell-section-specs';

const CONTENTS = ['talk', 'places', 'emergency', 'online'] as const;

/** The guide the visitor's route or price test names (SPEC.md §3: 8.99 or 17.99), else its own. */
function guideOffer(props: ScreenProps) {
  const plan = planOf(offeredPlans(props, 'upsell_guide').defaultFamily, visitorCurrency(props));
  const money = (cents: number) => formatMoney(cents, plan.currency, props.language);
  // The guide is struck from nothing: no one is ever charged more for it (shared/plans/anchors.ts).
  return { plan, copy: planCopy(plan, planContext(props)), total: chargedFirst(plan, null), money };
}

/** That the price includes tax, where the visitor's law wants it said. */
function TaxNote(props: ScreenProps) {
  const note = taxNoteText(props);
  return note ? <p className="plan-choice__tax">{note}</p> : null;
}

/**
 * The choice: the guide with what it holds and its price, and Buy, which buys it in
 * one click with the payment method on file.
 */
function GuideChoice(props: ScreenProps) {
  const { t, continueAction } = props;
  const { plan, copy, total, money } = guideOffer(props);
  return (
    <>
      <article className="guide-offer" aria-labelledby="guide-offer-name">
        <h2 id="guide-offer-name" className="guide-offer__name">
          {copy.name}
        </h2>
        <p className="guide-offer__description">{copy.description}</p>
        <BenefitList
          label={t('plans.upsell_guide.contents_label')}
          items={CONTENTS.map((item) => t(`plans.upsell_guide.contents.${item}`))}
        />
        <p className="guide-offer__price">
          <strong className="guide-offer__total">{money(total)}</strong>
        </p>
        <TaxNote {...props} />
        <p className="guide-offer__disclaimer">{copy.disclaimer}</p>
      </article>
      <Island
        name="UpsellPurchase"
        props={{
          offers: {
            [plan.id]: {
              id: plan.id,
              currency: plan.currency,
              price: decimalString(total, plan.currency),
              periodPrice: decimalString(total, plan.currency),
              trialDays: 0,
              coupon: null,
            },
          },
          defaultPlanId: plan.id,
          action: continueAction,
          // One payment: nothing renews, nothing to agree to.
          terms: null,
          copy: {
            paying: t('plans.pay.paying'),
            noAccount: t('plans.card.no_account'),
            gateway: gatewayCopy(t),
            ...upsellChargeCopy(t, t('plans.upsell_guide.cta'), {
              [plan.id]: { amount: money(total), renewal: null },
            }),
          },
          ...paymentPage(props),
          ...upsellCardAgainProps(props),
        }}
      />
    </>
  );
}

/** The guide's sections with what draws each (./upsell-section-specs.ts says what each is). */
const UPSELL_GUIDE_SECTIONS: Record<UpsellGuideSection, SectionKind> = {
  heading: headingSection(UPSELL_GUIDE_SECTION_SPECS.heading),
  choice: { ...UPSELL_GUIDE_SECTION_SPECS.choice, render: (props) => <GuideChoice {...props} /> },
  skip: skipSection(UPSELL_GUIDE_SECTION_SPECS.skip, 'plans.upsell_guide.skip'),
  trust: trustSection(UPSELL_GUIDE_SECTION_SPECS.trust),
  support: supportSection(UPSELL_GUIDE_SECTION_SPECS.support),
};

/**
 * The one-time safety-toolkit guide (SPEC.md §2) at its price, struck from nothing: SPEC.md §3's
 * one-time discount (20 off) would be taken from a 28.99 no one is ever charged, so it is not
 * shown as a saving; a clear Skip moves on without it. Drawn from its sections as a
 * marketer's content arranges them.
 */
export const UpsellGuideScreen = composedScreen(UPSELL_GUIDE_COMPOSITION, UPSELL_GUIDE_SECTIONS);

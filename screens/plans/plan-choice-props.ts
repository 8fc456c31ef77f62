import type { PlanChoiceProps } from '../../islands/PlanChoice';
import { type AnchorTerms, planFigures } from '../../shared/plans/anchors';
import { planOf } from '../../shared/plans/catalogue';
import {
  endedOffer,
  type ScreenOffer,
  type SellingScreenId,
  screenOffer,
} from '../../shared/plans/screen-offers';
import type { ScreenProps } from '../types';
import { planContext, planOption, taxNoteText, visitorCurrency } from './plan-copy';

/**
 * What a selling screen offers this visitor (shared/plans/screen-offers.ts, the table the worker
 * checks every charge against): the plans of the role it sells (main, upsell, guide) that the
 * visitor's route or price test arm names, else the screen's own, the one a quiz answer chose
 * preselected where it is among them; once the visitor's offer countdown ended, at the regular
 * prices.
 */
export function offeredPlans(props: ScreenProps, screen: SellingScreenId): ScreenOffer {
  const offer = screenOffer(screen, {
    plans: props.routePlans ?? null,
    upsellPlans: props.upsellPlans ?? null,
    guidePlans: props.guidePlans ?? null,
  });
  // A quiz answer's plan is ticked first where the screen offers it; it adds none.
  const { preselected } = props;
  const chosen =
    preselected !== undefined && offer.families.includes(preselected)
      ? { ...offer, defaultFamily: preselected }
      : offer;
  return props.offerClock?.state === 'ended' ? endedOffer(chosen) : chosen;
}

/** Whether the visitor's offer ends at a deadline still ahead (its countdown is running). */
function offerRunning(props: Pick<ScreenProps, 'offerClock'>): boolean {
  return props.offerClock?.state === 'running';
}

/**
 * Whether the offer's coupon is a real saving for this visitor: it ends at their deadline, after
 * which the price without it is charged, and the marketer left anchors on.
 */
export function couponSavingShown(props: ScreenProps, offer: Pick<ScreenOffer, 'coupon'>) {
  return offer.coupon !== null && offerRunning(props) && props.anchors !== false;
}

interface PlanChoiceOptions {
  slot?: PlanChoiceProps['slot'];
  /** A label every plan carries while the offer's coupon is a real saving ('30% off'). */
  couponLabel?: string;
  summary?: boolean;
}

/** The options of one offer, with their labels, under the visitor's terms. */
function offerOptions(
  props: ScreenProps,
  offer: Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>,
  running: boolean,
  couponLabel: string | undefined,
) {
  const { t } = props;
  const currency = visitorCurrency(props);
  const context = planContext(props);
  const defaultPlan = planOf(offer.defaultFamily, currency);
  const terms: AnchorTerms = {
    offered: offer.families,
    coupon: offer.coupon,
    offerEnds: running,
    anchors: props.anchors !== false,
  };
  const couponShown =
    couponLabel !== undefined && offer.coupon !== null && running && terms.anchors;
  return {
    defaultId: defaultPlan.id,
    options: offer.families.map((family) => {
      const plan = planOf(family, currency);
      const saving = planFigures(plan, terms).savePercent;
      const label = couponShown
        ? couponLabel
        : plan.id === defaultPlan.id
          ? t('plans.picker.most_popular')
          : saving > 0
            ? t('plans.picker.save', { percent: saving })
            : undefined;
      return planOption(plan, context, { label, terms });
    }),
  };
}

/**
 * The PlanChoice island's props for a screen's offer, in the visitor's currency and language.
 * The default plan is labelled 'Most popular'; any other plan that really saves is labelled with
 * its saving (shared/plans/anchors.ts). While the visitor's countdown runs, the same offer at the
 * regular prices rides along, for the island to show when it reaches zero.
 */
export function planChoiceProps(
  props: ScreenProps,
  offer: Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>,
  options: PlanChoiceOptions = {},
): PlanChoiceProps {
  const { t } = props;
  const running = offerRunning(props);
  const now = offerOptions(props, offer, running, options.couponLabel);
  return {
    label: t('plans.picker.label'),
    slot: options.slot ?? 'plan',
    ...now,
    afterOffer: running ? offerOptions(props, endedOffer(offer), false, undefined) : undefined,
    summaryLabels: options.summary
      ? {
          title: t('plans.summary.title'),
          discount: t('plans.summary.discount'),
          total: t('plans.summary.total'),
        }
      : undefined,
    taxNote: taxNoteText(props),
  };
}

import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { PlanPicker, type PlanPickerItem } from './kit/PlanPicker';
import { useWorkingStore } from './kit/use-working-store';
import { $offerEnded } from './stores/offer';
import { choosePlan, type PlanSlot, planChoiceStore } from './stores/plan-choice';

/** A plan as the server put it into words, with what the payment step will need to know. */
export interface PlanChoiceOption extends PlanPickerItem {
  /** The intro-then-recurring disclosure, shown for the selected plan. */
  disclosure: string;
  /** SPEC.md §2 order summary, formatted; discount is null when nothing is taken off. */
  summary: { product: string; regular: string; discount: string | null; total: string };
  /** Kept in $plans.planDetails for the payment step. */
  details: {
    id: string;
    currency: string;
    price: string;
    periodPrice: string;
    trialDays: number;
    coupon: string | null;
  };
}

export interface PlanChoiceProps {
  /** Accessible name of the plan group. */
  label: string;
  options: PlanChoiceOption[];
  /** Selected until the visitor chooses, or a choice made earlier is restored. */
  defaultId: string;
  /** The $plans field the choice goes to: the main plan or the upsell plan (SPEC.md §3). */
  slot: PlanSlot;
  /** Headings of the order summary; without them no summary is shown. */
  summaryLabels?: { title: string; discount: string; total: string };
  /** Where the visitor's law wants it, that the prices include tax ('Price includes VAT'). */
  taxNote?: string;
  /**
   * The same offer at the regular prices, while the visitor's offer countdown runs: shown, and
   * kept as the choice, once it reaches zero ($offerEnded), so what is charged is what is shown.
   */
  afterOffer?: { options: PlanChoiceOption[]; defaultId: string };
}

/**
 * The plan picker of a paywall, checkout or upsell, with the selected plan's order summary and
 * disclosure. The choice goes to $plans (SPEC.md §3 Plans state) so the payment step and a
 * reload see it; its store restores it and follows the end of the offer.
 */
export default function PlanChoice({
  label,
  options: offerOptions,
  defaultId: offerDefaultId,
  slot,
  summaryLabels,
  taxNote,
  afterOffer,
}: PlanChoiceProps) {
  const ended = useStore($offerEnded) && afterOffer !== undefined;
  const options = ended ? afterOffer.options : offerOptions;
  // The server's default until hydrated; then a stored choice (./stores/plan-choice.ts).
  const [$chosen] = useState(() =>
    planChoiceStore(slot, { options: offerOptions, defaultId: offerDefaultId }, afterOffer),
  );
  const activeId = useWorkingStore($chosen);
  const active = options.find((option) => option.id === activeId) ?? options[0];

  function onSelect(item: PlanPickerItem) {
    const option = options.find((candidate) => candidate.id === item.id);
    if (option) choosePlan($chosen, slot, option);
  }

  return (
    <div className="plan-choice">
      <PlanPicker items={options} activeId={activeId} onSelect={onSelect} label={label} />
      {active && summaryLabels ? (
        <section className="order-summary" aria-label={summaryLabels.title}>
          <h2 className="order-summary__title">{summaryLabels.title}</h2>
          <dl className="order-summary__rows">
            <div className="order-summary__row">
              <dt>{active.summary.product}</dt>
              <dd>{active.summary.regular}</dd>
            </div>
            {active.summary.discount ? (
              <div className="order-summary__row order-summary__row--discount">
                <dt>{summaryLabels.discount}</dt>
                <dd>{active.summary.discount}</dd>
              </div>
            ) : null}
            <div className="order-summary__row order-summary__row--total">
              <dt>{summaryLabels.total}</dt>
              <dd>{active.summary.total}</dd>
            </div>
          </dl>
        </section>
      ) : null}
      {taxNote ? <p className="plan-choice__tax">{taxNote}</p> : null}
      {active ? (
        <p className="plan-choice__disclosure" aria-live="polite">
          {active.disclosure}
        </p>
      ) : null}
    </div>
  );
}

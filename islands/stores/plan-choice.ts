import { atom, onMount } from 'nanostores';
import { browserOnly } from './browser-only';
import { $offerEnded } from './offer';
import { $plans } from './plans';

/** The $plans field a choice goes to: the main plan or the upsell plan (SPEC.md §3). */
export type PlanSlot = 'plan' | 'upsellPlan';

/** A plan offered, with what the payment step needs of it (kept in $plans.planDetails). */
interface ChoosablePlan {
  id: string;
  details: Record<string, unknown>;
}

/** The plans a picker offers and the one chosen until the visitor picks. */
export interface PlanOffer<Plan extends ChoosablePlan> {
  options: Plan[];
  defaultId: string;
}

export type PlanChoiceStore = ReturnType<typeof planChoiceStore>;

/**
 * The id of the plan chosen in one picker (islands/PlanChoice.tsx): the offer's default in the
 * server's render and the first client one, which know no stored choice. Once the island
 * listens (islands/kit/use-working-store.ts), a choice stored in $plans among the options is
 * applied, else the default is stored as the choice; and when the visitor's offer ends
 * ($offerEnded) the same is done among `afterOffer`'s regular prices, so what is charged is
 * what is shown.
 */
export function planChoiceStore<Plan extends ChoosablePlan>(
  slot: PlanSlot,
  offer: PlanOffer<Plan>,
  afterOffer?: PlanOffer<Plan>,
) {
  const $chosen = browserOnly(atom(offer.defaultId), 'plan choice');
  onMount($chosen, () => {
    const choose = () => {
      const { options, defaultId } = afterOffer && $offerEnded.get() ? afterOffer : offer;
      const stored = options.find((option) => option.id === $plans.get()[slot]);
      const chosen = stored ?? options.find((option) => option.id === defaultId);
      if (chosen) choosePlan($chosen, slot, chosen);
    };
    choose();
    return $offerEnded.listen(choose);
  });
  return $chosen;
}

/** `plan` is chosen: kept in $plans so the payment step and a reload see it. */
export function choosePlan($chosen: PlanChoiceStore, slot: PlanSlot, plan: ChoosablePlan): void {
  $chosen.set(plan.id);
  $plans.setKey(slot, plan.id);
  if (slot === 'plan') $plans.setKey('planDetails', plan.details);
}

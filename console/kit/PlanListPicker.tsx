import { useId } from 'react';
import type { PlanFamilyId, PlanRole } from '../../shared/plans/catalogue';
import { MAX_PLANS } from '../../shared/plans/screen-offers';
import { OWN_PLANS, planText } from './plan-text';
import { PLANS_OF_ROLE } from './route-choices';

/**
 * One plan list of a route or a variant, picked from the catalogue's families of its role by
 * mouse or keyboard: check boxes for the main and the upsell plans (the first checked is
 * preselected), one choice for the guide, whose screen offers one. Unchecking every plan, or
 * choosing the screen's own, leaves the list out.
 */
export function PlanListPicker({
  sells,
  legend,
  chosen,
  describedBy,
  onChange,
}: {
  sells: PlanRole;
  legend: string;
  chosen: readonly string[] | undefined;
  describedBy?: string;
  onChange(plans: PlanFamilyId[] | undefined): void;
}) {
  const id = useId();
  const picked = chosen ?? [];
  const families = PLANS_OF_ROLE[sells];
  const single = MAX_PLANS[sells] === 1;
  const none = `${legend} (optional; none: ${OWN_PLANS[sells]})`;
  if (single)
    return (
      <fieldset className="field plan-list" aria-describedby={describedBy}>
        <legend>{none}</legend>
        <label htmlFor={`${id}-own`} className="check">
          <input
            id={`${id}-own`}
            type="radio"
            name={`${id}-plan`}
            checked={picked.length === 0}
            onChange={() => onChange(undefined)}
          />{' '}
          The screen’s own
        </label>
        {families.map((plan) => (
          <label key={plan} htmlFor={`${id}-${plan}`} className="check">
            <input
              id={`${id}-${plan}`}
              type="radio"
              name={`${id}-plan`}
              checked={picked.includes(plan)}
              onChange={() => onChange([plan])}
            />{' '}
            {planText(plan)}
          </label>
        ))}
      </fieldset>
    );
  return (
    <fieldset className="field plan-list" aria-describedby={describedBy}>
      <legend>{none}</legend>
      <PlanChecks id={id} plans={families} picked={picked} onChange={onChange} />
    </fieldset>
  );
}

/**
 * A check box for each plan, the plans in the order they were checked, so the first checked is
 * the one preselected; none checked is undefined.
 */
export function PlanChecks({
  id,
  plans,
  picked,
  onChange,
}: {
  id: string;
  plans: readonly PlanFamilyId[];
  picked: readonly string[];
  onChange(plans: PlanFamilyId[] | undefined): void;
}) {
  const toggle = (plan: PlanFamilyId, on: boolean) => {
    const next = (
      on ? [...picked, plan] : picked.filter((each) => each !== plan)
    ) as PlanFamilyId[];
    onChange(next.length > 0 ? next : undefined);
  };
  return plans.map((plan) => (
    <label key={plan} htmlFor={`${id}-${plan}`} className="check">
      <input
        id={`${id}-${plan}`}
        type="checkbox"
        checked={picked.includes(plan)}
        onChange={(event) => toggle(plan, event.target.checked)}
      />{' '}
      {planText(plan)}
    </label>
  ));
}

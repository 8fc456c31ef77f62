import type { VariantChange } from '../../shared/config/experiments';
import type { ScreenChoice } from '../../shared/console-api/config';
import type { PlanFamilyId } from '../../shared/plans/catalogue';
import { PlanListPicker } from '../edit/PlanListPicker';
import type { ChangeKind } from '../experiment-presets';
import { planText } from '../plan-text';
import { PLANS_OF_ROLE } from '../route-choices';
import { slotOfKind } from '../route-defaults';

/**
 * What one variant changes, with a picker that can only name what may be changed: a flow of the
 * config, a screen of the slot the preset tests, a set of the catalogue's main plans, or the
 * upsell's tiers and the guide's price.
 */
export function ChangePicker({
  id,
  variant,
  kind,
  change,
  flows,
  screens,
  problem,
  onChange,
}: {
  id: string;
  variant: string;
  kind: ChangeKind;
  change: VariantChange;
  flows: readonly string[];
  screens: readonly ScreenChoice[];
  problem: string | null;
  onChange(change: VariantChange): void;
}) {
  const problemId = `${id}-problem`;
  const described = problem ? problemId : undefined;
  const problemLine = problem ? (
    <p className="field-problem" id={problemId}>
      {problem}
    </p>
  ) : null;
  if (kind.kind === 'plans' && kind.sells === 'main') {
    const chosen = change.plans ?? [];
    const toggle = (plan: PlanFamilyId, on: boolean) => {
      const plans = on ? [...chosen, plan] : chosen.filter((each) => each !== plan);
      onChange(plans.length > 0 ? { plans } : {});
    };
    return (
      <fieldset className="field change-picker" aria-describedby={described}>
        <legend>Plans variant {variant} offers (the first checked is preselected)</legend>
        {PLANS_OF_ROLE.main.map((plan) => (
          <label key={plan} htmlFor={`${id}-${plan}`} className="check">
            <input
              id={`${id}-${plan}`}
              type="checkbox"
              checked={chosen.includes(plan)}
              onChange={(event) => toggle(plan, event.target.checked)}
            />{' '}
            {planText(plan)}
          </label>
        ))}
        {problemLine}
      </fieldset>
    );
  }
  if (kind.kind === 'plans') {
    // The upsell's tiers and the guide's price, each list left out where none is picked.
    const set = (field: 'upsellPlans' | 'guidePlans', plans: PlanFamilyId[] | undefined) => {
      const next: VariantChange = { ...change };
      if (plans === undefined) delete next[field];
      else next[field] = plans;
      onChange(next);
    };
    return (
      <div className="field change-picker">
        <PlanListPicker
          sells="upsell"
          legend={`Upsell plans variant ${variant} offers (the first checked is preselected)`}
          chosen={change.upsellPlans}
          describedBy={described}
          onChange={(plans) => set('upsellPlans', plans)}
        />
        <PlanListPicker
          sells="guide"
          legend={`Guide variant ${variant} offers`}
          chosen={change.guidePlans}
          describedBy={described}
          onChange={(plans) => set('guidePlans', plans)}
        />
        {problemLine}
      </div>
    );
  }
  const slot = kind.kind === 'screen' ? kind.slot : null;
  const options =
    slot === null
      ? flows
      : screens.filter((screen) => slotOfKind(screen.kind) === slot).map((screen) => screen.id);
  const value = slot === null ? (change.flow ?? '') : (change.screens?.[slot] ?? '');
  const label =
    slot === null ? `Flow variant ${variant} walks` : `The ${slot} screen variant ${variant} shows`;
  return (
    <div className="field change-picker">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        aria-invalid={Boolean(problem) || undefined}
        aria-describedby={described}
        onChange={(event) => {
          const picked = event.target.value;
          if (picked === '') onChange({});
          else onChange(slot === null ? { flow: picked } : { screens: { [slot]: picked } });
        }}
      >
        <option value="">Choose…</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      {problemLine}
    </div>
  );
}

import { type FormEvent, memo, useId, useState } from 'react';
import type { FlowsDraft as FlowsDocument } from '../../shared/config/flows';
import type { RouteDocument, RoutingDocument } from '../../shared/config/routing';
import type { PlanFamilyId, PlanRole } from '../../shared/plans/catalogue';
import { PLAN_FIELDS, type PlanField } from '../../shared/plans/screen-offers';
import { AddButton, AddForm } from '../kit/AddForm';
import { NameField } from '../kit/NameField';
import { PlanListPicker } from '../kit/PlanListPicker';
import { routeIdProblem } from '../kit/routing-edits';
import { nameOptions, SelectField } from '../kit/SelectField';
import { addRoute } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';

/** What the add form calls each plan list of the new route. */
const PLAN_LEGENDS: Record<PlanRole, string> = {
  main: 'Main plans of the new route',
  upsell: 'Upsell plans of the new route',
  guide: 'Guide of the new route',
};

/**
 * A new route, placed just above default; its audience must be saved first. Its plans (main,
 * upsell, guide) may be picked here or later on its card.
 */
export const AddRoute = memo(function AddRoute({
  routing,
  flows,
}: {
  routing: RoutingDocument;
  flows: FlowsDocument;
}) {
  const document = { routing, flows };
  const id = useId();
  const audiences = Object.keys(document.routing.audiences);
  const [name, setName] = useState('');
  const [audience, setAudience] = useState('');
  const [flow, setFlow] = useState('default');
  const [plans, setPlans] = useState<RoutePlans>({});
  const [problem, setProblem] = useState<string | null>(null);
  const chosenAudience = audiences.includes(audience) ? audience : (audiences[0] ?? '');

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found =
      routeIdProblem(name, document.routing) ??
      (chosenAudience === '' ? 'Save an audience below first: a route takes an audience.' : null);
    setProblem(found);
    if (found) {
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    const route: RouteDocument = { id: name, audience: chosenAudience, flow };
    for (const [field, list] of Object.entries(plans) as [PlanField, PlanFamilyId[]][])
      if (list.length > 0) route[field] = list;
    addRoute(route);
    setPlans({});
    $editStatus.set(`Added the route ${name} above default, taking ${chosenAudience} to ${flow}.`);
    setName('');
  }

  return (
    <AddForm id={id} title="Add a route" onSubmit={onSubmit}>
      <div className="row__fields">
        <NameField id={id} label="Route name" value={name} problem={problem} onChange={setName} />
        <SelectField
          id={`${id}-audience`}
          label="Audience of the new route"
          value={chosenAudience}
          onChange={setAudience}
        >
          {audiences.length === 0 ? <option value="">No audience saved yet</option> : null}
          {nameOptions(audiences)}
        </SelectField>
        <SelectField
          id={`${id}-flow`}
          label="Flow of the new route"
          value={flow}
          onChange={setFlow}
        >
          {nameOptions(Object.keys(document.flows.flows))}
        </SelectField>
      </div>
      <NewRoutePlans plans={plans} onChange={setPlans} />
      <AddButton label="Add route" />
    </AddForm>
  );
});

type RoutePlans = Partial<Record<PlanField, PlanFamilyId[]>>;

/** The new route's plans of each role, optional: its card picks them later too. */
function NewRoutePlans({
  plans,
  onChange,
}: {
  plans: RoutePlans;
  onChange(plans: RoutePlans): void;
}) {
  return (
    <details className="add-form__plans">
      <summary>Choose plans for the new route (optional)</summary>
      {(Object.keys(PLAN_FIELDS) as PlanRole[]).map((role) => (
        <PlanListPicker
          key={role}
          sells={role}
          legend={PLAN_LEGENDS[role]}
          chosen={plans[PLAN_FIELDS[role]]}
          onChange={(list) => {
            const next = { ...plans };
            if (list === undefined) delete next[PLAN_FIELDS[role]];
            else next[PLAN_FIELDS[role]] = list;
            onChange(next);
          }}
        />
      ))}
    </details>
  );
}

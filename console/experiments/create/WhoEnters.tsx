import type { ConfigDocument } from '../../../shared/console-api/config';
import { ProblemLine, problemAria } from '../../kit/field-problem';
import { nameOptions } from '../../kit/SelectField';
import { useStore } from '../../kit/stores/atom';
import { NumberField } from '../FormFields';
import { type CreateExperimentForm, rangeWarningOf } from '../stores/create-experiment';

interface Props {
  id: string;
  form: CreateExperimentForm;
  document: ConfigDocument;
}

/** The routes the experiment takes visitors from; none checked is every route. */
export function RoutesField({ id, form, document }: Props) {
  const { routes } = useStore(form.$form);
  return (
    <fieldset className="field">
      <legend>Routes it takes visitors from (none checked: every route)</legend>
      {document.routing.routes.map(({ id: route }) => (
        <label key={route} htmlFor={`${id}-route-${route}`} className="check">
          <input
            id={`${id}-route-${route}`}
            type="checkbox"
            checked={routes.includes(route)}
            onChange={(event) => form.toggleRoute(route, event.target.checked, document)}
          />{' '}
          {route}
        </label>
      ))}
    </fieldset>
  );
}

/** The saved audience, the share of it that enters and the stretch of the layer it takes. */
export function WhoEnters({ id, form, document }: Props) {
  const fields = useStore(form.$form);
  const { audience, coverage, range } = fields;
  const problems = useStore(form.$problems);
  const warning = rangeWarningOf(fields, document);
  const warningId = `${id}-range-warning`;
  return (
    <div className="row__fields">
      {/* The subscriber's page knows no visitor facts: a save offer test names no audience. */}
      {fields.layer === 'subscriber' ? null : (
        <div className="field">
          <label htmlFor={`${id}-audience`}>Saved audience (optional)</label>
          <select
            id={`${id}-audience`}
            value={audience}
            onChange={(event) => form.chooseAudience(event.target.value, document)}
          >
            <option value="">None: everyone on its routes</option>
            {nameOptions(Object.keys(document.routing.audiences))}
          </select>
        </div>
      )}
      <NumberField
        id={`${id}-coverage`}
        label="Coverage (% of matching visitors who enter)"
        field="coverage"
        min={1}
        max={100}
        value={coverage}
        aria={problemAria(id, problems, 'coverage')}
        onChange={(text) => form.update({ coverage: Number(text) })}
      >
        <ProblemLine id={id} problems={problems} field="coverage" />
      </NumberField>
      <NumberField
        id={`${id}-from`}
        label="Range in the layer from (%)"
        field="range"
        min={0}
        max={100}
        value={range[0]}
        aria={problemAria(id, problems, 'range', warning ? warningId : undefined)}
        onChange={(text) => form.update({ range: [Number(text), range[1]] })}
      >
        <ProblemLine id={id} problems={problems} field="range" />
        {warning ? (
          <p className="notice notice--warning field__after" id={warningId}>
            {warning}
          </p>
        ) : null}
      </NumberField>
      <NumberField
        id={`${id}-to`}
        label="Range in the layer to (%)"
        min={0}
        max={100}
        value={range[1]}
        aria={{ 'aria-invalid': Boolean(problems.range) || undefined }}
        onChange={(text) => form.update({ range: [range[0], Number(text)] })}
      />
    </div>
  );
}

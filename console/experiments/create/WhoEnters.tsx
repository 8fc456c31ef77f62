import type { ConfigDocument } from '../../../shared/console-api/config';
import { ProblemLine, problemAria } from '../../kit/field-problem';
import { nameOptions } from '../../kit/SelectField';
import { useStore } from '../../kit/stores/atom';
import type { CreateExperimentForm } from '../stores/create-experiment';

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
            onChange={(event) => form.toggleRoute(route, event.target.checked)}
          />{' '}
          {route}
        </label>
      ))}
    </fieldset>
  );
}

/** The saved audience, the share of it that enters and the stretch of the layer it takes. */
export function WhoEnters({ id, form, document }: Props) {
  const { audience, coverage, range } = useStore(form.$form);
  const problems = useStore(form.$problems);
  const numberProps = { className: 'input input--number', type: 'number', max: 100 } as const;
  return (
    <div className="row__fields">
      <div className="field">
        <label htmlFor={`${id}-audience`}>Saved audience (optional)</label>
        <select
          id={`${id}-audience`}
          value={audience}
          onChange={(event) => form.update({ audience: event.target.value })}
        >
          <option value="">None: everyone on its routes</option>
          {nameOptions(Object.keys(document.routing.audiences))}
        </select>
      </div>
      <div className="field" data-field="coverage">
        <label htmlFor={`${id}-coverage`}>Coverage (% of matching visitors who enter)</label>
        <input
          id={`${id}-coverage`}
          {...numberProps}
          min={1}
          value={coverage}
          {...problemAria(id, problems, 'coverage')}
          onChange={(event) => form.update({ coverage: Number(event.target.value) })}
        />
        <ProblemLine id={id} problems={problems} field="coverage" />
      </div>
      <div className="field" data-field="range">
        <label htmlFor={`${id}-from`}>Range in the layer from (%)</label>
        <input
          id={`${id}-from`}
          {...numberProps}
          min={0}
          value={range[0]}
          {...problemAria(id, problems, 'range')}
          onChange={(event) => form.update({ range: [Number(event.target.value), range[1]] })}
        />
        <ProblemLine id={id} problems={problems} field="range" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>Range in the layer to (%)</label>
        <input
          id={`${id}-to`}
          {...numberProps}
          min={0}
          value={range[1]}
          aria-invalid={Boolean(problems.range) || undefined}
          onChange={(event) => form.update({ range: [range[0], Number(event.target.value)] })}
        />
      </div>
    </div>
  );
}

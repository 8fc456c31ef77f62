import { useId, useState } from 'react';
import type { Condition } from '../../shared/config/routing';
import {
  ROUTE_ATTRIBUTE_NAMES,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RouteOperator,
} from '../../shared/routing';
import { definitionOf, operatorChoices, valueChoices } from '../route-choices';

/** A new condition's attribute: where most routes start, the ad network. */
export const NEW_CONDITION: Condition = { attribute: 'source', operator: 'in', values: [] };

/** The attribute, operator and values of one condition; values only from the fixed lists. */
export function ConditionFields({
  condition,
  name,
  onChange,
  onRemove,
}: {
  condition: Condition;
  /** What a screen reader calls this condition: "condition 2", "condition 1 of group 2". */
  name: string;
  onChange: (condition: Condition) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const { attribute, operator, values } = condition;
  const definition = definitionOf(attribute);
  const label = definition.label;
  const choices = definition.kind === 'text' ? [] : valueChoices(attribute);
  const open = choices.filter((choice) => !values.includes(choice.value));
  const [picked, setPicked] = useState<string>('');
  const [typed, setTyped] = useState('');
  const [hint, setHint] = useState('');

  function chooseAttribute(next: RouteAttribute) {
    const [first] = operatorChoices(next);
    onChange({ attribute: next, operator: first?.value ?? 'in', values: [] });
    setPicked('');
    setHint('');
  }

  function addValue() {
    if (definition.kind === 'text') {
      const text = typed.trim();
      if (text === '') return setHint('Type the text first.');
      if (values.includes(text)) return setHint(`${text} is listed already.`);
      onChange({ ...condition, values: [...values, text] });
      setTyped('');
    } else {
      const choice = open.find((each) => String(each.value) === picked) ?? open[0];
      if (!choice) return setHint('Every value is listed already.');
      onChange({ ...condition, values: [...values, choice.value] });
      setPicked('');
    }
    setHint('');
  }

  const labelOf = (value: string | number) =>
    choices.find((choice) => choice.value === value)?.label ?? String(value);

  return (
    <fieldset className="condition">
      <legend className="visually-hidden">Condition {name}</legend>
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-attribute`}>Attribute of {name}</label>
          <select
            id={`${id}-attribute`}
            value={attribute}
            onChange={(event) => chooseAttribute(event.target.value as RouteAttribute)}
          >
            {ROUTE_ATTRIBUTE_NAMES.map((each) => (
              <option key={each} value={each}>
                {ROUTE_ATTRIBUTES[each].label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-operator`}>Operator of {name}</label>
          <select
            id={`${id}-operator`}
            value={operator}
            onChange={(event) =>
              onChange({ ...condition, operator: event.target.value as RouteOperator })
            }
          >
            {operatorChoices(attribute).map((each) => (
              <option key={each.value} value={each.value}>
                {each.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-value`}>
            {label} to add to {name}
          </label>
          {definition.kind === 'text' ? (
            <input
              id={`${id}-value`}
              className="input"
              autoComplete="off"
              maxLength={100}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  addValue();
                }
              }}
            />
          ) : (
            <select
              id={`${id}-value`}
              value={picked === '' ? String(open[0]?.value ?? '') : picked}
              onChange={(event) => setPicked(event.target.value)}
            >
              {open.map((choice) => (
                <option key={String(choice.value)} value={String(choice.value)}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </div>
        <div className="field field--action">
          <button
            type="button"
            className="button"
            // Starts with the button's text, so a speech user can say what they see.
            aria-label={`Add value to ${name}`}
            onClick={addValue}
          >
            Add value
          </button>
        </div>
      </div>
      {hint ? <p className="field-problem">{hint}</p> : null}
      <ul className="chosen-values" aria-label={`Values of ${name}`}>
        {values.length === 0 ? <li className="muted">No value yet.</li> : null}
        {values.map((value) => (
          <li key={String(value)} className="chip">
            {labelOf(value)}{' '}
            <button
              type="button"
              className="button button--small button--quiet"
              aria-label={`Remove ${labelOf(value)} from ${name}`}
              onClick={() =>
                onChange({ ...condition, values: values.filter((each) => each !== value) })
              }
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button--small"
        aria-label={`Remove ${name}`}
        onClick={onRemove}
      >
        Remove condition
      </button>
    </fieldset>
  );
}

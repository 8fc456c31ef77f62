import { useId, useState } from 'react';
import type { Condition } from '../../shared/config/routing';
import {
  ROUTE_ATTRIBUTE_NAMES,
  ROUTE_ATTRIBUTES,
  type RouteAttribute,
  type RouteOperator,
} from '../../shared/routing';
import { definitionOf, operatorChoices, valueChoices } from '../kit/route-choices';
import { SelectField } from '../kit/SelectField';

/** A new condition's attribute: where most routes start, the ad network. */
export const NEW_CONDITION: Condition = { attribute: 'source', operator: 'in', values: [] };

interface ConditionFieldsProps {
  condition: Condition;
  /** What a screen reader calls this condition: "condition 2", "condition 1 of group 2". */
  name: string;
  onChange: (condition: Condition) => void;
  onRemove: () => void;
}

/** The attribute, operator and values of one condition; values only from the fixed lists. */
export function ConditionFields({ condition, name, onChange, onRemove }: ConditionFieldsProps) {
  const id = useId();
  const { attribute, values } = condition;
  const adder = useValueAdder(condition, onChange);
  const { choices } = adder;

  function chooseAttribute(next: RouteAttribute) {
    const [first] = operatorChoices(next);
    onChange({ attribute: next, operator: first?.value ?? 'in', values: [] });
    adder.reset();
  }

  const labelOf = (value: string | number) =>
    choices.find((choice) => choice.value === value)?.label ?? String(value);

  return (
    <fieldset className="condition">
      <legend className="visually-hidden">Condition {name}</legend>
      <div className="row__fields">
        <TestedBy
          id={id}
          name={name}
          condition={condition}
          onAttribute={chooseAttribute}
          onOperator={(next) => onChange({ ...condition, operator: next })}
        />
        <ValueField
          id={`${id}-value`}
          label={`${definitionOf(attribute).label} to add to ${name}`}
          adder={adder}
        />
        <div className="field field--action">
          <button
            type="button"
            className="button"
            // Starts with the button's text, so a speech user can say what they see.
            aria-label={`Add value to ${name}`}
            onClick={adder.addValue}
          >
            Add value
          </button>
        </div>
      </div>
      {adder.hint ? <p className="field-problem">{adder.hint}</p> : null}
      <ChosenValues
        name={name}
        values={values}
        labelOf={labelOf}
        onRemove={(value) =>
          onChange({ ...condition, values: values.filter((each) => each !== value) })
        }
      />
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

/** What a condition tests: the visit's attribute, and how its values are compared. */
function TestedBy(props: {
  id: string;
  name: string;
  condition: Condition;
  onAttribute(attribute: RouteAttribute): void;
  onOperator(operator: RouteOperator): void;
}) {
  const { id, name, condition, onAttribute, onOperator } = props;
  const { attribute, operator } = condition;
  return (
    <>
      <SelectField
        id={`${id}-attribute`}
        label={`Attribute of ${name}`}
        value={attribute}
        onChange={(next) => onAttribute(next as RouteAttribute)}
      >
        {ROUTE_ATTRIBUTE_NAMES.map((each) => (
          <option key={each} value={each}>
            {ROUTE_ATTRIBUTES[each].label}
          </option>
        ))}
      </SelectField>
      <SelectField
        id={`${id}-operator`}
        label={`Operator of ${name}`}
        value={operator}
        onChange={(next) => onOperator(next as RouteOperator)}
      >
        {operatorChoices(attribute).map((each) => (
          <option key={each.value} value={each.value}>
            {each.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}

/** The values a condition lists, each with its remove button. */
function ChosenValues(props: {
  name: string;
  values: readonly (string | number)[];
  labelOf(value: string | number): string;
  onRemove(value: string | number): void;
}) {
  const { name, labelOf } = props;
  return (
    <ul className="chosen-values" aria-label={`Values of ${name}`}>
      {props.values.length === 0 ? <li className="muted">No value yet.</li> : null}
      {props.values.map((value) => (
        <li key={String(value)} className="chip">
          {labelOf(value)}{' '}
          <button
            type="button"
            className="button button--small button--quiet"
            aria-label={`Remove ${labelOf(value)} from ${name}`}
            onClick={() => props.onRemove(value)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The value a condition is about to list, typed or picked, and what stops it being added. */
function useValueAdder(condition: Condition, onChange: (condition: Condition) => void) {
  const { attribute, values } = condition;
  const definition = definitionOf(attribute);
  const choices = definition.kind === 'text' ? [] : valueChoices(attribute);
  const open = choices.filter((choice) => !values.includes(choice.value));
  const [picked, setPicked] = useState<string>('');
  const [typed, setTyped] = useState('');
  const [hint, setHint] = useState('');

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

  return {
    text: definition.kind === 'text',
    choices,
    open,
    picked,
    setPicked,
    typed,
    setTyped,
    hint,
    addValue,
    reset() {
      setPicked('');
      setHint('');
    },
  };
}

/** The value to add: typed (Enter adds it) or picked from what is not listed yet. */
function ValueField(props: { id: string; label: string; adder: ReturnType<typeof useValueAdder> }) {
  const { id, adder } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {adder.text ? (
        <input
          id={id}
          className="input"
          autoComplete="off"
          maxLength={100}
          value={adder.typed}
          onChange={(event) => adder.setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              adder.addValue();
            }
          }}
        />
      ) : (
        <select
          id={id}
          value={adder.picked === '' ? String(adder.open[0]?.value ?? '') : adder.picked}
          onChange={(event) => adder.setPicked(event.target.value)}
        >
          {adder.open.map((choice) => (
            <option key={String(choice.value)} value={String(choice.value)}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}

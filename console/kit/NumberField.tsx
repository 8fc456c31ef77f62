import type { ReactNode } from 'react';
import type { problemAria } from './field-problem';

/**
 * A labelled number input of a form's row of fields. It hands on the text as typed: each form
 * reads an empty or partial number its own way.
 */
export function NumberField(props: {
  id: string;
  label: string;
  value: number | string;
  min: number;
  max?: number;
  step?: number;
  /** The field's name, where the form moves focus to its problem (field-problem.ts focusField). */
  field?: string;
  /** Where it has a hint or a problem to point at. */
  aria?: Partial<ReturnType<typeof problemAria>>;
  onChange(text: string): void;
  /** What follows the input: its hint, its problem. */
  children?: ReactNode;
}) {
  return (
    <div className="field" data-field={props.field}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="input input--number"
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        {...props.aria}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.children}
    </div>
  );
}

import type { ReactNode } from 'react';
import type { problemAria } from '../kit/field-problem';

/** What every labelled field of a console form takes, whatever its control. */
interface FieldProps {
  id: string;
  label: string;
  /** The field's name, where the form moves focus to its problem (field-problem.tsx focusField). */
  field?: string;
  /** Where it has a hint or a problem to point at. */
  aria?: Partial<ReturnType<typeof problemAria>>;
  /** What follows the control: its hint, its problem. */
  children?: ReactNode;
}

function FieldFrame(props: FieldProps & { control: ReactNode }) {
  return (
    <div className="field" data-field={props.field}>
      <label htmlFor={props.id}>{props.label}</label>
      {props.control}
      {props.children}
    </div>
  );
}

/**
 * A labelled number input of a form's row of fields. It hands on the text as typed: each form
 * reads an empty or partial number its own way.
 */
export function NumberField(
  props: FieldProps & {
    value: number | string;
    min: number;
    max?: number;
    step?: number;
    onChange(text: string): void;
  },
) {
  const control = (
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
  );
  return <FieldFrame {...props} control={control} />;
}

/**
 * A few lines in the marketer's own words (a hypothesis, notes, a decision's reason), cut at the
 * length the config allows.
 */
export function TextAreaField(
  props: FieldProps & {
    maxLength: number;
    value: string;
    placeholder?: string;
    onChange(text: string): void;
  },
) {
  const control = (
    <textarea
      id={props.id}
      className="input"
      rows={2}
      maxLength={props.maxLength}
      placeholder={props.placeholder}
      value={props.value}
      {...props.aria}
      onChange={(event) => props.onChange(event.target.value)}
    />
  );
  return <FieldFrame {...props} control={control} />;
}

import type { ReactNode } from 'react';
import type { problemAria } from './field-problem';

/**
 * A few lines in the marketer's own words (a hypothesis, notes, a decision's reason), cut at the
 * length the config allows.
 */
export function TextAreaField(props: {
  id: string;
  label: string;
  maxLength: number;
  value: string;
  placeholder?: string;
  /** The field's name, where the form moves focus to its problem (field-problem.ts focusField). */
  field?: string;
  /** Where it has a hint or a problem to point at. */
  aria?: ReturnType<typeof problemAria>;
  onChange(text: string): void;
  /** What follows the text area: its hint, its problem. */
  children?: ReactNode;
}) {
  return (
    <div className="field" data-field={props.field}>
      <label htmlFor={props.id}>{props.label}</label>
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
      {props.children}
    </div>
  );
}

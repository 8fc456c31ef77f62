import type { ReactNode } from 'react';

/** A labelled select in a form's row of fields; its options are the children. */
export function SelectField(props: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {props.children}
      </select>
    </div>
  );
}

/** Values as the options of a select, each shown as itself or by the name `nameOf` gives it. */
export function nameOptions<T extends string>(
  values: readonly T[],
  nameOf: (value: T) => string = (value) => value,
) {
  return values.map((value) => (
    <option key={value} value={value}>
      {nameOf(value)}
    </option>
  ));
}

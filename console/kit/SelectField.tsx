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

/** Names as the options of a select, each its own value. */
export function nameOptions(names: readonly string[]) {
  return names.map((name) => (
    <option key={name} value={name}>
      {name}
    </option>
  ));
}

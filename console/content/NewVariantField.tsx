import { type ReactNode, useState } from 'react';
import { FieldProblem } from '../kit/field-problem';

/**
 * The name field and button that add a variant (a screen's content variant, or the save
 * offer's) or a save offer's reason for leaving: Enter or the button asks `create`, whose refusal shows beside the field and keeps
 * what was typed; a name taken empties the field. `children` are the buttons beside it.
 */
export function NewVariantField(props: {
  id: string;
  label: string;
  placeholder: string;
  button: string;
  create(name: string): string | null;
  children?: ReactNode;
}) {
  const { id } = props;
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = () => {
    const refused = props.create(name.trim());
    setProblem(refused);
    if (refused === null) setName('');
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <div className="field-inline">
        <input
          id={id}
          className="input"
          value={name}
          placeholder={props.placeholder}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') create();
          }}
        />
        <button type="button" className="button button--small" onClick={create}>
          {props.button}
        </button>
        {props.children}
      </div>
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </div>
  );
}

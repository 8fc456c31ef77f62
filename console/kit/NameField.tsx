import { FieldProblem } from './field-problem';
/**
 * The name a marketer types for something new (a flow, a route, an audience): an identifier, so
 * no autocapitalising or spellchecking, trimmed as typed, with its problem said beside it and
 * tied to it for screen readers.
 */
export function NameField(props: {
  /** The form's id: the input is `${id}-name`, its problem `${id}-problem`. */
  id: string;
  label: string;
  value: string;
  problem?: string | null;
  readOnly?: boolean;
  onChange(name: string): void;
}) {
  const { id, problem } = props;
  return (
    <div className="field">
      <label htmlFor={`${id}-name`}>{props.label}</label>
      <input
        id={`${id}-name`}
        className="input"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        readOnly={props.readOnly}
        value={props.value}
        aria-invalid={Boolean(problem) || undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => props.onChange(event.target.value.trim())}
      />
      <FieldProblem id={`${id}-problem`} problem={problem} />
    </div>
  );
}

import type { Problems } from '../../stores/create-experiment';

/** The id of the line saying what is wrong with field `key` of the form `id`. */
const problemId = (id: string, key: string) => `${id}-${key}-problem`;

/** The control's ARIA for field `key`: invalid and described by its problem while it has one. */
export function problemAria(id: string, problems: Problems, key: string) {
  return {
    'aria-invalid': Boolean(problems[key]) || undefined,
    'aria-describedby': problems[key] ? problemId(id, key) : undefined,
  };
}

/** What is wrong with field `key`, beside its control; nothing while it is fine. */
export function ProblemLine(props: { id: string; problems: Problems; field: string }) {
  const problem = props.problems[props.field];
  return problem ? (
    <p className="field-problem" id={problemId(props.id, props.field)}>
      {problem}
    </p>
  ) : null;
}

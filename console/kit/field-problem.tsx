/** What is wrong with a form, by field key. */
type Problems = Partial<Record<string, string>>;

/** The id of the line saying what is wrong with field `key` of the form `id`. */
const problemId = (id: string, key: string) => `${id}-${key}-problem`;

/**
 * The control's ARIA for field `key`: invalid while it has a problem, described by its hints and
 * then by the problem.
 */
export function problemAria(
  id: string,
  problems: Problems,
  key: string,
  ...hints: (string | undefined)[]
) {
  return {
    'aria-invalid': Boolean(problems[key]) || undefined,
    'aria-describedby':
      [...hints, problems[key] ? problemId(id, key) : undefined].filter(Boolean).join(' ') ||
      undefined,
  };
}

/**
 * What is wrong with a field, beside its control; nothing while it is fine. `id` is what the
 * control's aria-describedby names.
 */
export function FieldProblem({ id, problem }: { id: string; problem: string | null | undefined }) {
  return problem ? (
    <p className="field-problem" id={id}>
      {problem}
    </p>
  ) : null;
}

/** What is wrong with field `field` of a form's problems, beside its control. */
export function ProblemLine(props: { id: string; problems: Problems; field: string }) {
  return (
    <FieldProblem id={problemId(props.id, props.field)} problem={props.problems[props.field]} />
  );
}

/** Focuses the control of field `field` inside `root`: where a refused submit sends the marketer. */
export function focusField(root: ParentNode | null | undefined, field: string): void {
  root
    ?.querySelector<HTMLElement>(
      `[data-field="${field}"] input, [data-field="${field}"] select, [data-field="${field}"] textarea`,
    )
    ?.focus();
}

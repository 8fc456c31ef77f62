import type { ReactNode } from 'react';
import { FieldProblem } from '../kit/field-problem';

/** What a control under a check's message carries: invalid, and described by the message. */
export interface CheckedAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled control with the check's message about it underneath, the control marked invalid
 * and described by it while there is one: the content area's fields that the review refuses at
 * their own path (a description, a rating figure, a brand's link).
 */
export function CheckedField({
  id,
  label,
  problem,
  control,
}: {
  id: string;
  label: string;
  problem: string | undefined;
  control: (aria: CheckedAria) => ReactNode;
}) {
  const problemId = `${id}-problem`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control({
        'aria-invalid': problem ? true : undefined,
        'aria-describedby': problem ? problemId : undefined,
      })}
      <FieldProblem id={problemId} problem={problem} />
    </div>
  );
}

import { errorId } from './field-errors';
import { usePlacedErrors } from './stores/review';

/**
 * The worker's refusals placed at `path` (field-errors.ts), for the control that edits it:
 * `describedBy` and `invalid` go on the control, <FieldMessages> beside it.
 */
export function useFieldErrors(path: string) {
  const errors = usePlacedErrors().get(path) ?? [];
  const invalid = errors.length > 0;
  return {
    errors,
    invalid,
    describedBy: invalid ? errorId(path) : undefined,
  };
}

export function FieldMessages({ path }: { path: string }) {
  const { errors } = useFieldErrors(path);
  if (errors.length === 0) return null;
  return (
    <ul className="field-errors" id={errorId(path)}>
      {errors.map((error) => (
        <li key={`${error.path}:${error.message}`}>{error.message}</li>
      ))}
    </ul>
  );
}

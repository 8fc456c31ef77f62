import type { FieldError } from '../../shared/console-api/errors';
import { ROUTE_LANGUAGES } from '../../shared/routing';
import { languageName } from './content-text';
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
        <li key={`${error.path}:${error.message}`}>{placedMessage(path, error)}</li>
      ))}
    </ul>
  );
}

/**
 * A refusal as said at its place: one of a language whose field is not shown (a text in German
 * while English is edited) says its language, so six such refusals say six languages.
 */
function placedMessage(path: string, error: FieldError): string {
  if (error.path === path) return error.message;
  const last = error.path.split('.').at(-1) ?? '';
  const language = (ROUTE_LANGUAGES as readonly string[]).includes(last);
  return language ? `${languageName(last)}: ${error.message}` : error.message;
}

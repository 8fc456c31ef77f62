import type { FieldError } from '../../shared/console-api/errors';
import { anchorOf, errorAnchors, errorId, fieldLabel } from './field-errors';
import { useStore } from './stores/atom';
import { $draft } from './stores/draft';

/**
 * Every refusal of the draft in one alert, each naming its field and linking to the message
 * beside it (FieldMessages), with the document path the worker named.
 */
export function ErrorSummary({
  errors,
  intro = 'The draft was refused; nothing was published.',
}: {
  errors: readonly FieldError[];
  /** What the refusal meant: a publish's by default. */
  intro?: string;
}) {
  const draft = useStore($draft);
  const anchors = draft ? errorAnchors(draft.document) : new Set<string>();
  return (
    <div className="notice notice--error" role="alert">
      <p>
        <strong>{intro}</strong> Fix these, then review again:
      </p>
      <ul>
        {errors.map((error) => {
          const anchor = anchorOf(error.path, anchors);
          const label = fieldLabel(error.path);
          return (
            <li key={`${error.path}:${error.message}`}>
              {anchor ? <a href={`#${errorId(anchor)}`}>{label}</a> : label}: {error.message}{' '}
              <code className="muted">{error.path}</code>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

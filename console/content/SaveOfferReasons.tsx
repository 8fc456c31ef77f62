import type { ContentDocument } from '../../shared/config/content';
import type { FieldError } from '../../shared/console-api/errors';
import { SAVE_OFFER_REASONS_MAX } from '../../shared/save-offer-reasons';
import { languageName } from '../kit/content-text';
import { FieldProblem } from '../kit/field-problem';
import { editContent } from '../kit/stores/draft';
import { CheckedField } from './CheckedField';
import { NewVariantField } from './NewVariantField';
import {
  newReasonProblem,
  offerReasonKeys,
  withNewReason,
  withoutReason,
  withReasonText,
} from './save-offer-edits';

/**
 * The reasons for leaving the cancel's confirm lists (docs/marketers.md, "The save offer before
 * a cancel"), for the subscriber to pick one or none: each a key and its words per language. A
 * key is not renamed in place: the results count the picks by key, so another key is another
 * reason, added as one and the old one removed.
 */

const AT = 'content.saveOffer.reasons';
const NEW_REASON_ID = 'save-offer-new-reason';
const PROBLEM_ID = 'save-offer-reasons-problem';

/** One reason: its words in the language written, and the button that takes it out. */
function ReasonRow(props: {
  reason: string;
  texts: Record<string, string>;
  language: string;
  errors: readonly FieldError[];
}) {
  const { reason, language, errors } = props;
  const id = `save-offer-reason-${reason}`;
  const problem =
    errors.find((error) => error.path === `${AT}.${reason}.${language}`) ??
    errors.find((error) => error.path === `${AT}.${reason}`);
  const remove = () => {
    editContent((content) => withoutReason(content, reason));
    // The button leaves with its row: the keyboard goes on from the field that adds one.
    document.getElementById(NEW_REASON_ID)?.focus();
  };
  return (
    <li className="row__fields">
      <CheckedField
        id={id}
        label={`Reason ${reason} in ${languageName(language)} (at most 500 characters)`}
        problem={problem?.message}
        control={(aria) => (
          <input
            id={id}
            className="input"
            value={props.texts[language] ?? ''}
            {...aria}
            onChange={(event) =>
              editContent((content) =>
                withReasonText(content, reason, language, event.target.value),
              )
            }
          />
        )}
      />
      <div className="field field--action">
        <button
          type="button"
          className="button button--small"
          aria-label={`Remove reason ${reason}`}
          onClick={remove}
        >
          Remove
        </button>
      </div>
    </li>
  );
}

/** The offer's reasons in `language`, with the field that adds one and the check's refusals. */
export function SaveOfferReasons(props: {
  content: ContentDocument;
  language: string;
  errors: readonly FieldError[];
}) {
  const { content, language, errors } = props;
  const reasons = content.saveOffer?.reasons ?? {};
  const keys = offerReasonKeys(content);
  const whole = errors.find((error) => error.path === AT);
  const create = (key: string) => {
    const refused = newReasonProblem(keys, key);
    if (refused === null) editContent((drafted) => withNewReason(drafted, key));
    return refused;
  };
  return (
    <fieldset className="save-offer-reasons" aria-describedby={whole ? PROBLEM_ID : undefined}>
      <legend>Reasons for leaving (at most {SAVE_OFFER_REASONS_MAX})</legend>
      <p className="muted">
        The confirm lists them for the subscriber to pick one, or none; the results count each pick
        by its key. Write each in every language the offer is written in: a language one lacks is
        asked no reason at all.
      </p>
      <FieldProblem id={PROBLEM_ID} problem={whole?.message} />
      {keys.length === 0 ? (
        <p className="muted">No reasons: the confirm asks none.</p>
      ) : (
        <ul className="save-offer-reasons__list" aria-label="Reasons for leaving">
          {keys.map((reason) => (
            <ReasonRow
              key={reason}
              reason={reason}
              texts={reasons[reason] ?? {}}
              {...{ language, errors }}
            />
          ))}
        </ul>
      )}
      <NewVariantField
        id={NEW_REASON_ID}
        label="Key of a new reason (lower case, digits and _)"
        placeholder="too_expensive"
        button="Add reason"
        create={create}
      />
    </fieldset>
  );
}

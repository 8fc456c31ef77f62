import { useState } from 'react';
import type { ReviewRating } from '../../shared/config/content';
import type { FieldError } from '../../shared/console-api/errors';
import { CheckedField } from './CheckedField';
import { setRating } from './stores/content-editor';

/**
 * The rating the reviews section opens with (docs/marketers.md, "The reviews and their rating"):
 * the stars, the number of reviews and where both come from, as the marketer reads them off the
 * store. The fields keep what is typed ("4." on the way to "4.6"); the draft gets a number where
 * the text is one and the text itself where it is not, so the check names the mistake at its
 * field rather than the form dropping it. All three emptied, the screen shows no rating.
 */

type Field = keyof ReviewRating;

const LABELS: Record<Field, string> = {
  value: 'Rating, stars out of 5 (such as 4.6)',
  count: 'Number of reviews (such as 12400)',
  source: 'Where they come from (such as App Store)',
};

function textOf(rating: ReviewRating | undefined): Record<Field, string> {
  return {
    value: rating?.value === undefined ? '' : String(rating.value),
    count: rating?.count === undefined ? '' : String(rating.count),
    source: rating?.source ?? '',
  };
}

/** What the draft holds for the texts typed: numbers where they are, nothing where empty. */
function ratingOf(texts: Record<Field, string>): ReviewRating | undefined {
  const number = (text: string) => {
    const trimmed = text.trim();
    if (trimmed === '') return undefined;
    const parsed = Number(trimmed);
    // Not a number: kept as typed, for the check to refuse with its message.
    return (Number.isFinite(parsed) ? parsed : trimmed) as number;
  };
  const rating = {
    value: number(texts.value),
    count: number(texts.count),
    source: texts.source.trim() === '' ? undefined : texts.source,
  };
  const given = Object.fromEntries(Object.entries(rating).filter(([, v]) => v !== undefined));
  return Object.keys(given).length === 0 ? undefined : (given as ReviewRating);
}

export function RatingFields({
  screen,
  rating,
  issues,
}: {
  screen: string;
  rating: ReviewRating | undefined;
  issues: readonly FieldError[];
}) {
  // Keyed by screen where it is drawn: another screen starts from its own rating.
  const [texts, setTexts] = useState(() => textOf(rating));
  const at = `content.screens.${screen}.rating`;
  const whole = issues.find((issue) => issue.path === at);
  return (
    <fieldset className="content-copy content-rating">
      <legend>Rating above the reviews</legend>
      <p className="muted">
        Copy the figures from the store or review site you name; leave all three empty to show no
        rating. Nothing is ever made up for you.
      </p>
      {whole ? <p className="field-problem">{whole.message}</p> : null}
      {(Object.keys(LABELS) as Field[]).map((field) => {
        const id = `content-rating-${field}`;
        const problem = issues.find((issue) => issue.path === `${at}.${field}`);
        return (
          <CheckedField
            key={field}
            id={id}
            label={LABELS[field]}
            problem={problem?.message}
            control={(aria) => (
              <input
                id={id}
                className="input"
                inputMode={field === 'source' ? undefined : 'decimal'}
                value={texts[field]}
                {...aria}
                onChange={(event) => {
                  const next = { ...texts, [field]: event.target.value };
                  setTexts(next);
                  setRating(ratingOf(next));
                }}
              />
            )}
          />
        );
      })}
    </fieldset>
  );
}

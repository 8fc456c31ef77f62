import type { TFunction } from 'i18next';
import type { CSSProperties } from 'react';
import type { ReviewRating } from '../../shared/config/content';

/** Stars out of this many, as the stores draw them. */
const STARS = 5;

/**
 * The marketer's rating, review count and their source as text, in the page's language's
 * numbers ("4.6 out of 5 · 12,400 reviews · App Store"); the stars are drawn from the value and
 * hidden from screen readers, which read the text. Nothing without a rating: code never makes
 * one up (shared/config/content.ts `rating`).
 */
export function RatingSummary({
  t,
  language,
  rating,
}: {
  t: TFunction;
  language: string;
  rating: ReviewRating | null | undefined;
}) {
  if (!rating?.source || (rating.value === undefined && rating.count === undefined)) return null;
  const { value, count, source } = rating;
  const parts = [
    value === undefined
      ? null
      : t('kit.review_proof.value', {
          value: new Intl.NumberFormat(language, {
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
          }).format(value),
        }),
    count === undefined
      ? null
      : // i18next writes the count in the language's own numbers ({{count, number}}).
        t('kit.review_proof.count', { count }),
    source,
  ].filter((part): part is string => part !== null);
  return (
    <p className="rating">
      {value === undefined ? null : (
        <span
          className="rating__stars"
          aria-hidden="true"
          // One decimal out of five is a whole percent.
          style={{ '--rating-fill': `${Math.round((value / STARS) * 100)}%` } as CSSProperties}
        >
          {'★'.repeat(STARS)}
        </span>
      )}
      <span className="rating__text">
        {parts.map((part, index) => (
          <span key={part} className="rating__part">
            {index > 0 ? ' · ' : null}
            {part}
          </span>
        ))}
      </span>
    </p>
  );
}

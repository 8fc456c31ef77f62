import type { TFunction } from 'i18next';
import { ReviewsCarousel } from '../../islands/kit/ReviewsCarousel';
import { Island } from '../layout/Island';

/**
 * Each reviewer and the content hash in their portrait's name (the first 8 hex digits of the
 * file's SHA-256), so public/_headers can cache the portraits for a year: a changed portrait is a
 * new name (test/unit/pictures/review-portraits.test.ts holds the names to the files).
 */
const REVIEWERS = {
  emily: '3513cd37',
  carlos: '16f1c5f8',
  priya: '20a31cba',
  james: '54e671c7',
} as const;

/**
 * Drawn portraits, small local SVGs (no third-party images, no photographs of real people);
 * listed as the landings' images to fetch ahead.
 */
export const REVIEW_AVATARS = Object.entries(REVIEWERS).map(
  ([reviewer, hash]) => `/img/reviews/${reviewer}-${hash}.svg`,
);

/**
 * What users say (SPEC.md §2 reviews carousel). Sliding, it is a small island; static, it is
 * plain server HTML listing every review, with no script at all.
 */
export function Reviews({ t, mode }: { t: TFunction; mode: 'slide' | 'static' }) {
  const label = t('landing.reviews.title');
  const items = Object.keys(REVIEWERS).map((reviewer, index) => ({
    name: t(`landing.reviews.${reviewer}.name`),
    text: t(`landing.reviews.${reviewer}.text`),
    img: REVIEW_AVATARS[index],
  }));
  return (
    <div className="landing-section">
      <h2 className="landing-section__title">{label}</h2>
      {mode === 'slide' ? (
        <Island name="ReviewsCarousel" props={{ items, label }} />
      ) : (
        <ReviewsCarousel items={items} label={label} mode="static" />
      )}
    </div>
  );
}

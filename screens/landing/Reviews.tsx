import type { TFunction } from 'i18next';
import { ReviewsCarousel } from '../../islands/kit/ReviewsCarousel';
import { Island } from '../layout/Island';

const REVIEWERS = ['emily', 'carlos', 'priya', 'james'] as const;

/** Small local avatars (no third-party images); listed as the landings' images to fetch ahead. */
export const REVIEW_AVATARS = REVIEWERS.map((reviewer) => `/img/reviews/${reviewer}.svg`);

/**
 * What users say (SPEC.md §2 reviews carousel). Sliding, it is a small island; static, it is
 * plain server HTML listing every review, with no script at all.
 */
export function Reviews({ t, mode }: { t: TFunction; mode: 'slide' | 'static' }) {
  const label = t('landing.reviews.title');
  const items = REVIEWERS.map((reviewer, index) => ({
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

import type { TFunction } from 'i18next';
import { ReviewsCarousel } from '../../islands/kit/ReviewsCarousel';
import type { ReviewRating } from '../../shared/config/content';
import { RatingSummary } from '../kit/RatingSummary';
import { REVIEW_AVATARS, REVIEWERS } from '../kit/review-portraits';
import { Island } from '../layout/Island';

/**
 * What users say (SPEC.md §2 reviews carousel), under the rating the marketer's content gives, if
 * any. Sliding, it is a small island; static, it is plain server HTML listing every review, with
 * no script at all.
 */
export function Reviews({
  t,
  mode,
  language,
  rating,
}: {
  t: TFunction;
  mode: 'slide' | 'static';
  language: string;
  rating?: ReviewRating | null;
}) {
  const label = t('landing.reviews.title');
  const items = Object.keys(REVIEWERS).map((reviewer, index) => ({
    name: t(`landing.reviews.${reviewer}.name`),
    text: t(`landing.reviews.${reviewer}.text`),
    img: REVIEW_AVATARS[index],
  }));
  const props = {
    items,
    label,
    pauseLabel: t('kit.review_proof.pause'),
    playLabel: t('kit.review_proof.play'),
  };
  return (
    <div className="landing-section">
      <h2 className="landing-section__title">{label}</h2>
      <RatingSummary t={t} language={language} rating={rating} />
      {mode === 'slide' ? (
        <Island name="ReviewsCarousel" props={props} />
      ) : (
        <ReviewsCarousel {...props} mode="static" />
      )}
    </div>
  );
}

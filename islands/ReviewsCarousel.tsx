/** The reviews carousel as an island of its own, for screens where it slides. */
export { ReviewsCarousel as default } from './kit/ReviewsCarousel';

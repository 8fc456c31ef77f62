import PhoneForm from '../../islands/PhoneForm';
import ReviewsCarousel from '../../islands/ReviewsCarousel';

/** Islands of the landing screens (see screens/islands.ts). */
export const LANDING_ISLANDS = { PhoneForm, ReviewsCarousel } as const;

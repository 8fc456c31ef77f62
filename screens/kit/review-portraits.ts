/**
 * Each reviewer and the content hash in their portrait's name (the first 8 hex digits of the
 * file's SHA-256), so public/_headers can cache the portraits for a year: a changed portrait is a
 * new name (test/unit/pictures/review-portraits.test.ts holds the names to the files).
 */
export const REVIEWERS = {
  emily: '3513cd37',
  carlos: '16f1c5f8',
  priya: '20a31cba',
  james: '54e671c7',
} as const;

/**
 * Drawn portraits, small local SVGs (no third-party images, no photographs of real people):
 * the landing's reviews and the sign-up's testimonials show them, and their screens list them as
 * images to fetch ahead.
 */
export const REVIEW_AVATARS = Object.entries(REVIEWERS).map(
  ([reviewer, hash]) => `/img/reviews/${reviewer}-${hash}.svg`,
);

import type { TFunction } from 'i18next';
import { compactCss } from '../styles';
import { REVIEW_AVATARS } from './review-portraits';
import { TESTIMONIALS_CSS } from './styles/testimonials';

interface Review {
  name: string;
  text: string;
}

/** The rules a page whose area's CSS lacks them takes with the section (a paywall's content). */
const OWN_CSS = compactCss(TESTIMONIALS_CSS);

/**
 * What other families say about the app (signup_testim has it in code; a marketer may add it to
 * a paywall). `ownStyle` carries its rules along, for a screen whose area's CSS has none: only the
 * pages that show it pay for them.
 */
export function Testimonials({ t, ownStyle = false }: { t: TFunction; ownStyle?: boolean }) {
  // Each text by its own key, so a marketer's copy of one (worker/content/) takes its place.
  const reviews = Object.keys(
    t('signup.testimonials', { returnObjects: true }) as Record<string, Review>,
  ).map((id, index) => ({
    name: t(`signup.testimonials.${id}.name`),
    text: t(`signup.testimonials.${id}.text`),
    // The landing's drawn portraits, in turn: a face beside a quote, never a real person's.
    portrait: REVIEW_AVATARS[index % REVIEW_AVATARS.length],
  }));
  return (
    <section className="signup__testimonials" aria-label={t('signup.testimonials_label')}>
      {ownStyle ? <style>{OWN_CSS}</style> : null}
      <ul className="signup__testimonial-list">
        {reviews.map((review) => (
          <li key={review.name} className="signup__testimonial">
            {/* Decorative: the name beside it says who speaks, as on the landing's reviews. */}
            <img
              className="signup__portrait"
              src={review.portrait}
              alt=""
              width={40}
              height={40}
              loading="lazy"
            />
            <blockquote className="signup__quote">{review.text}</blockquote>
            <p className="signup__author">{review.name}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

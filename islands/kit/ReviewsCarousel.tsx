import { type CSSProperties, type FocusEvent, useEffect, useRef, useState } from 'react';
import {
  type CarouselStore,
  carouselStore,
  type PauseReason,
  pauseCarousel,
  resumeCarousel,
} from '../stores/reviews-carousel';
import { useAfterHydration } from './use-after-hydration';
import { useWorkingStore } from './use-working-store';

/** SPEC.md §3 Review item: name, text and avatar; or just a plain string. */
export type ReviewItem = string | { name: string; text: string; img?: string };

/** SPEC.md §9: the carousel moves on every 2 s unless told otherwise. */
export const CAROUSEL_INTERVAL_MS = 2000;

function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
}

function Review({ item }: { item: ReviewItem }) {
  if (typeof item === 'string') {
    return <p className="reviews__text">{item}</p>;
  }
  return (
    <figure className="reviews__figure">
      <figcaption className="reviews__author">
        {item.img ? (
          <img
            className="reviews__avatar"
            src={item.img}
            alt=""
            width={48}
            height={48}
            loading="lazy"
          />
        ) : (
          <span className="reviews__avatar" aria-hidden="true">
            {initialsOf(item.name)}
          </span>
        )}
        <span className="reviews__name">{item.name}</span>
      </figcaption>
      <blockquote className="reviews__text">{item.text}</blockquote>
    </figure>
  );
}

/**
 * The reviews carousel (SPEC.md §4): one item forward per interval, after the last on to a clone
 * of the first, then back to the real first without animation half an interval later (SPEC.md §9
 * reset delay), so it always moves the same way. It never moves without its Pause button in view
 * (WCAG 2.2.2): a visitor's pause holds until they press Play; touch, hover and focus hold it
 * while they last. Static mode, visitors who prefer reduced motion and screens wide enough to
 * show the reviews side by side get them all at once, still. Before the script runs, the phone's
 * one-review window scrolls sideways, so every review is readable without it. Its clock and the
 * screen it follows are its store's (islands/stores/reviews-carousel.ts).
 */
export function ReviewsCarousel({
  items,
  label,
  pauseLabel,
  playLabel,
  interval = CAROUSEL_INTERVAL_MS,
  mode = 'slide',
}: {
  items: readonly ReviewItem[];
  /** Accessible name of the carousel, e.g. "What our users say". */
  label: string;
  /** The button's words while the reviews move ("Pause reviews") and while paused. */
  pauseLabel: string;
  playLabel: string;
  interval?: number;
  mode?: 'slide' | 'static';
}) {
  const live = useAfterHydration();
  const [$carousel] = useState(() =>
    carouselStore({ interval, count: items.length, slides: mode === 'slide' }),
  );
  const { index, animated, sliding, pausedBy } = useWorkingStore($carousel);
  const paused = pausedBy.size > 0;
  const [pause, resume] = pauseHandlers($carousel);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    // Focus moving between parts of the carousel keeps it paused.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume('focus')();
  };

  return (
    <section
      className="reviews"
      aria-roledescription="carousel"
      aria-label={label}
      data-live={live ? 'yes' : undefined}
      data-paused={paused ? 'yes' : undefined}
      onTouchStart={pause('touch')}
      onTouchEnd={resume('touch')}
      onTouchCancel={resume('touch')}
      onMouseEnter={pause('hover')}
      onMouseLeave={resume('hover')}
      onFocus={pause('focus')}
      onBlur={onBlur}
    >
      <ReviewsTrack
        items={items}
        sliding={sliding}
        scrolls={sliding && !live}
        still={!sliding || paused}
        index={index}
        animated={animated}
      />
      {mode === 'slide' ? (
        // Its room is kept from the first paint, so the button's arrival moves nothing.
        <div className="reviews__controls">
          {live && sliding ? (
            <PauseButton
              pausedByVisitor={pausedBy.has('visitor')}
              onPause={pause('visitor')}
              // Play means play now, even with focus still on the button.
              onPlay={resume('visitor', 'focus')}
              pauseLabel={pauseLabel}
              playLabel={playLabel}
            />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** Event handlers that pause the carousel for a reason, and that end reasons' pauses. */
function pauseHandlers($carousel: CarouselStore) {
  return [
    (reason: PauseReason) => () => pauseCarousel($carousel, reason),
    (...reasons: PauseReason[]) =>
      () =>
        resumeCarousel($carousel, ...reasons),
  ] as const;
}

/** The reviews in their window, sliding by `index`, with the first's clone while sliding. */
function ReviewsTrack({
  items,
  sliding,
  scrolls,
  still,
  index,
  animated,
}: {
  items: readonly ReviewItem[];
  sliding: boolean;
  /** Before the script runs: the window scrolls sideways, so keyboard readers can scroll it too. */
  scrolls: boolean;
  still: boolean;
  index: number;
  animated: boolean;
}) {
  const trackClass = [
    'reviews__track',
    sliding ? '' : 'reviews__track--static',
    animated ? '' : 'reviews__track--instant',
  ]
    .filter(Boolean)
    .join(' ');
  const viewport = useRef<HTMLDivElement>(null);
  // Stays an effect: it writes to the window's element.
  useEffect(() => {
    // Scrolled by hand before the script ran, the window would add that to the slide's offset.
    if (!scrolls && viewport.current) viewport.current.scrollLeft = 0;
  }, [scrolls]);
  return (
    <div ref={viewport} className="reviews__viewport" tabIndex={scrolls ? 0 : undefined}>
      <ul
        className={trackClass}
        data-index={sliding ? index : undefined}
        // A moving carousel would interrupt a screen reader at every step; a still one may speak.
        aria-live={still ? 'polite' : 'off'}
        style={sliding ? ({ '--reviews-index': index } as CSSProperties) : undefined}
      >
        {items.map((item, position) => (
          <li
            className="reviews__item"
            key={typeof item === 'string' ? item : item.name + position}
          >
            <Review item={item} />
          </li>
        ))}
        {sliding && items[0] !== undefined ? (
          <li className="reviews__item reviews__item--clone" aria-hidden="true">
            <Review item={items[0]} />
          </li>
        ) : null}
      </ul>
    </div>
  );
}

function PauseButton(props: {
  pausedByVisitor: boolean;
  onPause: () => void;
  onPlay: () => void;
  pauseLabel: string;
  playLabel: string;
}) {
  const { pausedByVisitor } = props;
  return (
    <button
      type="button"
      className="reviews__pause"
      data-state={pausedByVisitor ? 'paused' : 'playing'}
      onClick={pausedByVisitor ? props.onPlay : props.onPause}
    >
      <span className="reviews__pause-icon" aria-hidden="true" />
      {pausedByVisitor ? props.playLabel : props.pauseLabel}
    </button>
  );
}

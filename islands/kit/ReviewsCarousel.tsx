import { type CSSProperties, type FocusEvent, useEffect, useState } from 'react';

/** SPEC.md §3 Review item: name, text and avatar; or just a plain string. */
export type ReviewItem = string | { name: string; text: string; img?: string };

/** SPEC.md §9: the carousel moves on every 2 s unless told otherwise. */
export const CAROUSEL_INTERVAL_MS = 2000;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

type PauseReason = 'touch' | 'hover' | 'focus';

function usePrefersReducedMotion(): boolean {
  // The server cannot know; the first client render matches it, the real answer follows.
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia?.(REDUCED_MOTION);
    if (!query) return;
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/**
 * Paused while any reason holds: `[paused, pause, resume]`, where `pause(reason)` and
 * `resume(reason)` make event handlers.
 */
function usePause() {
  const [pausedBy, setPausedBy] = useState<ReadonlySet<PauseReason>>(new Set());
  return [
    pausedBy.size > 0,
    (reason: PauseReason) => () => setPausedBy((current) => new Set(current).add(reason)),
    (reason: PauseReason) => () =>
      setPausedBy((current) => {
        const next = new Set(current);
        next.delete(reason);
        return next;
      }),
  ] as const;
}

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
 * The auto-scrolling reviews carousel (SPEC.md §4): one item forward per interval, paused while
 * the visitor touches it (and, for keyboard and pointer users, while hovered or focused); after
 * the last item it slides on to a clone of the first, then jumps back to the real first item
 * without animation half an interval later (SPEC.md §9 reset delay), so it always moves the same
 * way. Static mode, and visitors who prefer reduced motion, get the items listed vertically.
 */
export function ReviewsCarousel({
  items,
  label,
  interval = CAROUSEL_INTERVAL_MS,
  mode = 'slide',
}: {
  items: readonly ReviewItem[];
  /** Accessible name of the carousel, e.g. "What our users say". */
  label: string;
  interval?: number;
  mode?: 'slide' | 'static';
}) {
  const reducedMotion = usePrefersReducedMotion();
  const sliding = mode === 'slide' && !reducedMotion && items.length > 1;
  // `animated` is false only for the jump back from the clone to the first item.
  const [{ index, animated }, setPosition] = useState({ index: 0, animated: true });
  const [paused, pause, resume] = usePause();

  useEffect(() => {
    if (!sliding || paused) return;
    const onClone = index === items.length;
    const delay = onClone || !animated ? interval / 2 : interval;
    const timer = setTimeout(() => {
      setPosition(onClone ? { index: 0, animated: false } : { index: index + 1, animated: true });
    }, delay);
    return () => clearTimeout(timer);
  }, [sliding, paused, index, animated, interval, items.length]);

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    // Focus moving between parts of the carousel keeps it paused.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) resume('focus')();
  };

  const trackClass = [
    'reviews__track',
    sliding ? '' : 'reviews__track--static',
    animated ? '' : 'reviews__track--instant',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <section
      className="reviews"
      aria-roledescription="carousel"
      aria-label={label}
      data-paused={paused ? 'yes' : undefined}
      // Keyboard users can focus the moving region to stop it while they read.
      tabIndex={sliding ? 0 : undefined}
      onTouchStart={pause('touch')}
      onTouchEnd={resume('touch')}
      onTouchCancel={resume('touch')}
      onMouseEnter={pause('hover')}
      onMouseLeave={resume('hover')}
      onFocus={pause('focus')}
      onBlur={onBlur}
    >
      <ul
        className={trackClass}
        data-index={sliding ? index : undefined}
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
    </section>
  );
}

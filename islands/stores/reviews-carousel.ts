import { map, onMount, onNotify } from 'nanostores';
import { browserOnly } from './browser-only';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * From this width the reviews sit side by side, every one in view (the landing's CSS lays them
 * out in a grid), so nothing slides and nothing needs pausing.
 */
export const SIDE_BY_SIDE = '(min-width: 768px)';

export type PauseReason = 'touch' | 'hover' | 'focus' | 'visitor';

export interface CarouselState {
  /** The item in view; `count` is the clone of the first after the last. */
  index: number;
  /** False only for the jump back from the clone to the first item. */
  animated: boolean;
  /** Whether it slides: false in static mode, for a single review, and once the browser says
   * the visitor prefers reduced motion or the screen shows the reviews side by side. */
  sliding: boolean;
  /** Paused while any reason holds. */
  pausedBy: ReadonlySet<PauseReason>;
}

export type CarouselStore = ReturnType<typeof carouselStore>;

/**
 * One reviews carousel (islands/kit/ReviewsCarousel.tsx, SPEC.md §4, §9). The server and the
 * first client render see it sliding where its mode allows, unpaused, on the first item. Once
 * the island listens (islands/kit/use-working-store.ts) the store follows the browser's reduced
 * motion and width, and moves one item forward per `interval` while sliding and not paused;
 * all of it stops a second after the island goes.
 */
export function carouselStore({
  interval,
  count,
  slides,
}: {
  interval: number;
  count: number;
  /** Its mode slides ('slide', not 'static'). */
  slides: boolean;
}) {
  const canSlide = slides && count > 1;
  const $carousel = browserOnly(
    map<CarouselState>({ index: 0, animated: true, sliding: canSlide, pausedBy: new Set() }),
    'reviews carousel',
  );
  onMount($carousel, () => {
    const stopFollowing = followScreen($carousel, canSlide);
    const stopAdvancing = advance($carousel, interval, count);
    return () => {
      stopFollowing();
      stopAdvancing();
    };
  });
  return $carousel;
}

/** Pauses for `reason` (a touch, hover, focus, or the visitor's Pause) until it is resumed. */
export function pauseCarousel($carousel: CarouselStore, reason: PauseReason): void {
  const pausedBy = $carousel.get().pausedBy;
  if (!pausedBy.has(reason)) $carousel.setKey('pausedBy', new Set(pausedBy).add(reason));
}

/** Ends the pause of each of `reasons`; it moves again once no reason is left. */
export function resumeCarousel($carousel: CarouselStore, ...reasons: PauseReason[]): void {
  const pausedBy = $carousel.get().pausedBy;
  if (!reasons.some((reason) => pausedBy.has(reason))) return;
  const next = new Set(pausedBy);
  for (const reason of reasons) next.delete(reason);
  $carousel.setKey('pausedBy', next);
}

/** Keeps `sliding` to what the screen allows: still for reduced motion and side by side. */
function followScreen($carousel: CarouselStore, canSlide: boolean): () => void {
  const lists = [REDUCED_MOTION, SIDE_BY_SIDE].flatMap((query) => {
    const list = window.matchMedia?.(query);
    return list ? [list] : [];
  });
  const follow = () => $carousel.setKey('sliding', canSlide && !lists.some((list) => list.matches));
  follow();
  for (const list of lists) list.addEventListener('change', follow);
  return () => {
    for (const list of lists) list.removeEventListener('change', follow);
  };
}

/**
 * One item forward per interval while sliding and not paused, onto the clone after the last,
 * then back to the first without animation half an interval later (SPEC.md §9 reset delay).
 * A pause, or a change of item, starts the wait afresh.
 */
function advance($carousel: CarouselStore, interval: number, count: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingFor = '';
  const schedule = () => {
    const { index, animated, sliding, pausedBy } = $carousel.value as CarouselState;
    const moving = sliding && pausedBy.size === 0;
    const step = moving ? `${index} ${animated}` : '';
    if (step === waitingFor) return;
    waitingFor = step;
    clearTimeout(timer);
    if (!moving) return;
    const onClone = index === count;
    timer = setTimeout(
      () =>
        $carousel.set({
          ...($carousel.value as CarouselState),
          ...(onClone ? { index: 0, animated: false } : { index: index + 1, animated: true }),
        }),
      onClone || !animated ? interval / 2 : interval,
    );
  };
  schedule();
  const unbind = onNotify($carousel, schedule);
  return () => {
    unbind();
    clearTimeout(timer);
  };
}

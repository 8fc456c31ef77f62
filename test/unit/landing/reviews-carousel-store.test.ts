import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  carouselStore,
  pauseCarousel,
  resumeCarousel,
  SIDE_BY_SIDE,
} from '../../../islands/stores/reviews-carousel';

const INTERVAL = 2000;

/** The screen's media lists, each with the change listeners the store added. */
const screen = { wide: false, listeners: [] as (() => void)[], asked: 0 };

/** The browser's matchMedia: narrow, no reduced motion, until a test widens it. */
function stubMatchMedia() {
  vi.stubGlobal('window', {
    matchMedia: (query: string) => {
      screen.asked += 1;
      return {
        get matches() {
          return query === SIDE_BY_SIDE && screen.wide;
        },
        addEventListener: (_: string, listener: () => void) => screen.listeners.push(listener),
        removeEventListener: (_: string, listener: () => void) =>
          screen.listeners.splice(screen.listeners.indexOf(listener), 1),
      };
    },
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  Object.assign(screen, { wide: false, listeners: [], asked: 0 });
  stubMatchMedia();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const threeReviews = () => carouselStore({ interval: INTERVAL, count: 3, slides: true });

describe('the reviews carousel store (SPEC.md §4, §9)', () => {
  it('does nothing before the island listens: no clock, no question to the screen', () => {
    const $carousel = threeReviews();
    vi.advanceTimersByTime(INTERVAL * 3);
    expect($carousel.value).toMatchObject({ index: 0, sliding: true });
    expect(screen.asked).toBe(0);
  });

  it('moves on one item per interval once listened to', () => {
    const $carousel = threeReviews();
    $carousel.listen(() => {});
    vi.advanceTimersByTime(INTERVAL - 1);
    expect($carousel.value?.index).toBe(0);
    vi.advanceTimersByTime(1);
    expect($carousel.value?.index).toBe(1);
    vi.advanceTimersByTime(INTERVAL);
    expect($carousel.value?.index).toBe(2);
  });

  it('goes onto the clone, then back to the first without animation half an interval later', () => {
    const $carousel = threeReviews();
    $carousel.listen(() => {});
    vi.advanceTimersByTime(INTERVAL * 3);
    expect($carousel.value).toMatchObject({ index: 3, animated: true });
    vi.advanceTimersByTime(INTERVAL / 2);
    expect($carousel.value).toMatchObject({ index: 0, animated: false });
    vi.advanceTimersByTime(INTERVAL / 2);
    expect($carousel.value).toMatchObject({ index: 1, animated: true });
  });

  it('holds while any reason to pause holds, and waits a whole interval after', () => {
    const $carousel = threeReviews();
    $carousel.listen(() => {});
    pauseCarousel($carousel, 'hover');
    pauseCarousel($carousel, 'visitor');
    vi.advanceTimersByTime(INTERVAL * 2);
    expect($carousel.value?.index).toBe(0);
    resumeCarousel($carousel, 'hover');
    vi.advanceTimersByTime(INTERVAL * 2);
    expect($carousel.value?.index).toBe(0);
    resumeCarousel($carousel, 'visitor');
    vi.advanceTimersByTime(INTERVAL - 1);
    expect($carousel.value?.index).toBe(0);
    vi.advanceTimersByTime(1);
    expect($carousel.value?.index).toBe(1);
  });

  it('stands still once the screen shows the reviews side by side, and slides when narrow', () => {
    const $carousel = threeReviews();
    $carousel.listen(() => {});
    screen.wide = true;
    for (const listener of screen.listeners) listener();
    expect($carousel.value?.sliding).toBe(false);
    vi.advanceTimersByTime(INTERVAL * 2);
    expect($carousel.value?.index).toBe(0);
    screen.wide = false;
    for (const listener of screen.listeners) listener();
    vi.advanceTimersByTime(INTERVAL);
    expect($carousel.value).toMatchObject({ sliding: true, index: 1 });
  });

  it('never slides a single review or in static mode', () => {
    const single = carouselStore({ interval: INTERVAL, count: 1, slides: true });
    const still = carouselStore({ interval: INTERVAL, count: 3, slides: false });
    single.listen(() => {});
    still.listen(() => {});
    vi.advanceTimersByTime(INTERVAL * 2);
    expect(single.value).toMatchObject({ sliding: false, index: 0 });
    expect(still.value).toMatchObject({ sliding: false, index: 0 });
  });

  it('stops its clock and its screen listeners a second after the island goes', () => {
    const $carousel = threeReviews();
    const unlisten = $carousel.listen(() => {});
    expect(screen.listeners.length).toBe(2);
    unlisten();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
    expect(screen.listeners.length).toBe(0);
    const index = $carousel.value?.index;
    vi.advanceTimersByTime(INTERVAL * 3);
    expect($carousel.value?.index).toBe(index);
  });
});

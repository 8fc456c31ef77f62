// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CAROUSEL_INTERVAL_MS,
  type ReviewItem,
  ReviewsCarousel,
} from '../../../islands/kit/ReviewsCarousel';

const ITEMS: ReviewItem[] = [
  { name: 'Emily R.', text: 'Found my daughter.', img: '/img/reviews/emily.svg' },
  { name: 'Carlos M.', text: 'Found my dad.' },
  'Plain words of praise.',
];

function track(container: HTMLElement) {
  return container.querySelector<HTMLElement>('.reviews__track')!;
}
const position = (container: HTMLElement) => Number(track(container).dataset.index);

/** Each timer is armed by an effect after the render before it, so time passes in steps. */
async function elapse(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

beforeEach(() => {
  vi.useFakeTimers();
  preferReducedMotion(false);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ReviewsCarousel (SPEC.md §4, §9)', () => {
  it('moves on one item every 2 seconds by default', async () => {
    expect(CAROUSEL_INTERVAL_MS).toBe(2000);
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" />);
    expect(position(container)).toBe(0);
    await elapse(1999);
    expect(position(container)).toBe(0);
    await elapse(1);
    expect(position(container)).toBe(1);
    expect(track(container).style.getPropertyValue('--reviews-index')).toBe('1');
    await elapse(2000);
    expect(position(container)).toBe(2);
  });

  it('takes its interval from the caller', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" interval={500} />);
    await elapse(500);
    expect(position(container)).toBe(1);
  });

  it('stands still while the visitor touches it, and moves on after the touch ends', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" />);
    const carousel = container.querySelector('.reviews')!;
    fireEvent.touchStart(carousel);
    await elapse(10_000);
    expect(position(container)).toBe(0);
    fireEvent.touchEnd(carousel);
    await elapse(2000);
    expect(position(container)).toBe(1);
  });

  it('stands still while hovered or focused, for pointer and keyboard readers', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" />);
    const carousel = container.querySelector<HTMLElement>('.reviews')!;
    fireEvent.mouseEnter(carousel);
    await elapse(6000);
    expect(position(container)).toBe(0);
    fireEvent.mouseLeave(carousel);
    fireEvent.focus(carousel);
    await elapse(6000);
    expect(position(container)).toBe(0);
    fireEvent.blur(carousel);
    await elapse(2000);
    expect(position(container)).toBe(1);
  });

  it('wraps around through a clone of the first item, then jumps back without sliding', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" />);
    const clone = container.querySelector('.reviews__item--clone')!;
    expect(clone.getAttribute('aria-hidden')).toBe('true');
    expect(clone.textContent).toBe(container.querySelector('.reviews__item')!.textContent);
    for (let step = 0; step < ITEMS.length; step += 1) await elapse(2000);
    // Slid forward onto the clone, so the carousel keeps moving the same way.
    expect(position(container)).toBe(3);
    expect(track(container).classList.contains('reviews__track--instant')).toBe(false);
    // SPEC.md §9: the reset comes half an interval later, without animation.
    await elapse(999);
    expect(position(container)).toBe(3);
    await elapse(1);
    expect(position(container)).toBe(0);
    expect(track(container).classList.contains('reviews__track--instant')).toBe(true);
    // The first item stays up one interval in all (the clone's half plus this half).
    await elapse(1000);
    expect(position(container)).toBe(1);
    expect(track(container).classList.contains('reviews__track--instant')).toBe(false);
  });

  it('in static mode lists every item vertically and never slides', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" mode="static" />);
    expect(track(container).classList.contains('reviews__track--static')).toBe(true);
    expect(container.querySelectorAll('.reviews__item')).toHaveLength(ITEMS.length);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(10_000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('is static for visitors who prefer reduced motion', async () => {
    preferReducedMotion(true);
    const { container } = render(<ReviewsCarousel items={ITEMS} label="Reviews" />);
    expect(track(container).classList.contains('reviews__track--static')).toBe(true);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(10_000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('shows a review as name, text and avatar, or as plain text', () => {
    const { container, getByText } = render(
      <ReviewsCarousel items={ITEMS} label="Reviews" mode="static" />,
    );
    const [first, second, third] = container.querySelectorAll('.reviews__item');
    expect(first!.querySelector('img')?.getAttribute('src')).toBe('/img/reviews/emily.svg');
    expect(first!.querySelector('.reviews__name')?.textContent).toBe('Emily R.');
    expect(getByText('Found my daughter.').tagName).toBe('BLOCKQUOTE');
    // Without an avatar image, the initials stand in.
    expect(second!.querySelector('.reviews__avatar')?.textContent).toBe('CM');
    expect(third!.textContent).toBe('Plain words of praise.');
  });

  it('is a labelled carousel for assistive technology', () => {
    const html = renderToString(<ReviewsCarousel items={ITEMS} label="What our users say" />);
    expect(html).toContain('aria-roledescription="carousel"');
    expect(html).toContain('aria-label="What our users say"');
  });

  it('does not slide a single review', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS.slice(0, 1)} label="Reviews" />);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(4000);
    expect(track(container).dataset.index).toBeUndefined();
  });
});

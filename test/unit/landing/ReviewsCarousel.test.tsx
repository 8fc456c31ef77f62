// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CAROUSEL_INTERVAL_MS,
  type ReviewItem,
  ReviewsCarousel,
} from '../../../islands/kit/ReviewsCarousel';
import { SIDE_BY_SIDE } from '../../../islands/stores/reviews-carousel';

const LABELS = { label: 'Reviews', pauseLabel: 'Pause reviews', playLabel: 'Play reviews' };

const ITEMS: ReviewItem[] = [
  { name: 'Emily R.', text: 'Found my daughter.', img: '/img/reviews/emily.svg' },
  { name: 'Carlos M.', text: 'Found my dad.' },
  'Plain words of praise.',
];

function track(container: HTMLElement) {
  return container.querySelector<HTMLElement>('.reviews__track')!;
}
const position = (container: HTMLElement) => Number(track(container).dataset.index);

/** Each step re-renders the island, so time passes in acts. */
async function elapse(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

/** The visitor's screen: whether they prefer reduced motion, and whether it is 768 px or wider. */
function screenIs({ reduce = false, wide = false }: { reduce?: boolean; wide?: boolean }) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: (reduce && query.includes('reduce')) || (wide && query === SIDE_BY_SIDE),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

beforeEach(() => {
  vi.useFakeTimers();
  screenIs({});
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ReviewsCarousel (SPEC.md §4, §9)', () => {
  it('moves on one item every 2 seconds by default', async () => {
    expect(CAROUSEL_INTERVAL_MS).toBe(2000);
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
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
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} interval={500} />);
    await elapse(500);
    expect(position(container)).toBe(1);
  });

  it('stands still while the visitor touches it, and moves on after the touch ends', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    const carousel = container.querySelector('.reviews')!;
    fireEvent.touchStart(carousel);
    await elapse(10_000);
    expect(position(container)).toBe(0);
    fireEvent.touchEnd(carousel);
    await elapse(2000);
    expect(position(container)).toBe(1);
  });

  it('stands still while hovered or focused, for pointer and keyboard readers', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
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
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
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
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} mode="static" />);
    expect(track(container).classList.contains('reviews__track--static')).toBe(true);
    expect(container.querySelectorAll('.reviews__item')).toHaveLength(ITEMS.length);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(10_000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('is static for visitors who prefer reduced motion', async () => {
    screenIs({ reduce: true });
    const { container } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    expect(track(container).classList.contains('reviews__track--static')).toBe(true);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(10_000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('shows a review as name, text and avatar, or as plain text', () => {
    const { container, getByText } = render(
      <ReviewsCarousel items={ITEMS} {...LABELS} mode="static" />,
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
    const html = renderToString(
      <ReviewsCarousel items={ITEMS} {...LABELS} label="What our users say" />,
    );
    expect(html).toContain('aria-roledescription="carousel"');
    expect(html).toContain('aria-label="What our users say"');
  });

  it('does not slide a single review', async () => {
    const { container } = render(<ReviewsCarousel items={ITEMS.slice(0, 1)} {...LABELS} />);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    await elapse(4000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('has a labelled Pause button that stops it until the visitor presses Play (WCAG 2.2.2)', async () => {
    const { container, getByRole } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    const carousel = container.querySelector<HTMLElement>('.reviews')!;
    await elapse(2000);
    expect(position(container)).toBe(1);
    fireEvent.click(getByRole('button', { name: 'Pause reviews' }));
    // Leaving it, by mouse or focus, does not set it moving again: only Play does.
    fireEvent.mouseLeave(carousel);
    fireEvent.blur(carousel);
    await elapse(10_000);
    expect(position(container)).toBe(1);
    expect(track(container).getAttribute('aria-live')).toBe('polite');
    fireEvent.click(getByRole('button', { name: 'Play reviews' }));
    expect(track(container).getAttribute('aria-live')).toBe('off');
    await elapse(2000);
    expect(position(container)).toBe(2);
  });

  it('plays again at Play even while focus stays on the button', async () => {
    const { container, getByRole } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    const button = getByRole('button', { name: 'Pause reviews' });
    fireEvent.focus(button);
    fireEvent.click(button);
    await elapse(6000);
    expect(position(container)).toBe(0);
    fireEvent.click(getByRole('button', { name: 'Play reviews' }));
    await elapse(2000);
    expect(position(container)).toBe(1);
  });

  it('shows every review side by side from 768 px, still, with no button to pause it', async () => {
    screenIs({ wide: true });
    const { container, queryByRole } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    expect(container.querySelectorAll('.reviews__item')).toHaveLength(ITEMS.length);
    expect(container.querySelector('.reviews__item--clone')).toBeNull();
    expect(queryByRole('button')).toBeNull();
    await elapse(10_000);
    expect(track(container).dataset.index).toBeUndefined();
  });

  it('gives visitors who prefer reduced motion no motion and so no button', async () => {
    screenIs({ reduce: true });
    const { queryByRole } = render(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    await elapse(0);
    expect(queryByRole('button')).toBeNull();
  });

  it('in the server HTML keeps the button its room, and lets the window scroll by keyboard', () => {
    const html = renderToString(<ReviewsCarousel items={ITEMS} {...LABELS} />);
    // No button that needs the script before the script runs; its row is there already.
    expect(html).not.toContain('<button');
    expect(html).toContain('class="reviews__controls"');
    expect(html).toMatch(/class="reviews__viewport" tabindex="0"/);
    expect(html).not.toContain('data-live');
  });
});

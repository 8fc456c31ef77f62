// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown, OfferCountdown } from '../../../islands/kit/OfferCountdown';
import { $app } from '../../../islands/stores/app';
import { $offerEnded, offerCountdown, secondsLeft } from '../../../islands/stores/offer';
import { OFFER_SECONDS } from '../../../shared/plans/offer-clock';
import { serverThenHydrate } from '../kit/hydrate';

const shown = () => document.querySelector('[role="timer"]')?.textContent;
const banner = () => document.querySelector('.offer-banner')?.textContent;
const copy = { label: 'Offer ends in', endedText: 'This offer has ended' };

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  vi.useFakeTimers();
  localStorage.clear();
  $app.setKey('timerSeconds', null);
  $offerEnded.set(false);
});
afterEach(() => {
  cleanup();
  // Lets the unmounted countdowns' stores stop, so none still listens to the next test's page.
  vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
  vi.useRealTimers();
});

async function tick(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

describe('countdown figures (SPEC.md §4, §9)', () => {
  it('runs 300 seconds by default', () => {
    expect(OFFER_SECONDS).toBe(300);
  });

  it('counts whole seconds left to the deadline, never below 0', () => {
    expect(secondsLeft(300_000, 0)).toBe(300);
    expect(secondsLeft(300_000, 1)).toBe(300);
    expect(secondsLeft(300_000, 1000)).toBe(299);
    expect(secondsLeft(300_000, 299_500)).toBe(1);
    expect(secondsLeft(300_000, 300_000)).toBe(0);
    expect(secondsLeft(300_000, 3_600_000)).toBe(0);
  });

  it.each([
    [300, '05:00'],
    [299, '04:59'],
    [61, '01:01'],
    [59, '00:59'],
    [0, '00:00'],
  ])('shows %i seconds in minutes as %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text);
  });
});

describe('OfferCountdown (SPEC.md §4 countdown timer)', () => {
  it('starts from the seconds the server rendered, as a timer read left to right', () => {
    render(<OfferCountdown secondsLeft={187} {...copy} />);
    expect(shown()).toBe('03:07');
    expect(document.querySelector('[role="timer"]')?.getAttribute('dir')).toBe('ltr');
    expect($app.get().timerSeconds).toBe(187);
  });

  it('counts down each second, then says the offer ended and ends it at zero', async () => {
    render(<OfferCountdown secondsLeft={3} {...copy} />);
    await tick(1000);
    expect(shown()).toBe('00:02');
    expect($offerEnded.get()).toBe(false);
    await tick(2000);
    expect(banner()).toBe('This offer has ended');
    expect(shown()).toBeUndefined();
    expect($offerEnded.get()).toBe(true);
    await tick(5000);
    expect($app.get().timerSeconds).toBe(0);
  });

  it('says the offer ended at once when the server rendered it ended', () => {
    render(<OfferCountdown secondsLeft={0} {...copy} />);
    expect(banner()).toBe('This offer has ended');
    expect($offerEnded.get()).toBe(true);
  });

  it('resets $app.timerSeconds to null on leaving the screen (unmount or pagehide)', async () => {
    const { unmount } = render(<OfferCountdown secondsLeft={300} {...copy} />);
    await tick(5000);
    expect($app.get().timerSeconds).toBe(295);
    unmount();
    // The store stops a second after its last listener left (nanostores' onMount), so a
    // listener that leaves and comes straight back does not restart the count.
    await tick(STORE_UNMOUNT_DELAY);
    expect($app.get().timerSeconds).toBeNull();
    render(<OfferCountdown secondsLeft={300} {...copy} />);
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect($app.get().timerSeconds).toBeNull();
  });

  it('keeps its deadline when the page comes back from the back/forward cache', async () => {
    render(<OfferCountdown secondsLeft={300} {...copy} />);
    await tick(10_000);
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
      vi.advanceTimersByTime(20_000);
      const pageshow = new Event('pageshow') as Event & { persisted: boolean };
      Object.defineProperty(pageshow, 'persisted', { value: true });
      window.dispatchEvent(pageshow);
    });
    expect(shown()).toBe('04:30');
  });

  it('renders the server time and hydrates without a mismatch, even with a stored value', async () => {
    $app.setKey('timerSeconds', 42);
    expect(renderToString(<OfferCountdown secondsLeft={200} {...copy} />)).toContain('03:20');
    const { problems, container, root } = await serverThenHydrate(
      <OfferCountdown secondsLeft={200} {...copy} />,
      { beforeHydrate: () => $app.setKey('timerSeconds', 42) },
    );
    expect(problems).toEqual([]);
    expect(container.querySelector('[role="timer"]')?.textContent).toBe('03:20');
    act(() => root.unmount());
  });
});

describe('the offer countdown store', () => {
  it('counts only while listened to, and clears its timer a second after the last leaves', () => {
    const $secondsLeft = offerCountdown(300);
    vi.advanceTimersByTime(5000);
    expect(vi.getTimerCount()).toBe(0);
    expect($app.get().timerSeconds).toBeNull();
    const leave = $secondsLeft.listen(() => {});
    expect($app.get().timerSeconds).toBe(300);
    vi.advanceTimersByTime(2000);
    expect($secondsLeft.value).toBe(298);
    leave();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
    expect(vi.getTimerCount()).toBe(0);
    expect($app.get().timerSeconds).toBeNull();
    expect($secondsLeft.value).toBe(297);
  });

  it('stops listening to the page once stopped: a later pageshow restarts nothing', () => {
    const leave = offerCountdown(300).listen(() => {});
    leave();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
    const pageshow = new Event('pageshow') as Event & { persisted: boolean };
    Object.defineProperty(pageshow, 'persisted', { value: true });
    window.dispatchEvent(pageshow);
    expect(vi.getTimerCount()).toBe(0);
    expect($app.get().timerSeconds).toBeNull();
  });
});

// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  formatCountdown,
  OFFER_SECONDS,
  OfferCountdown,
  secondsLeft,
} from '../../../islands/kit/OfferCountdown';
import { $app } from '../../../islands/stores/app';
import { serverThenHydrate } from '../kit/hydrate';

const shown = () => document.querySelector('[role="timer"]')?.textContent;

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  vi.useFakeTimers();
  localStorage.clear();
  $app.setKey('timerSeconds', null);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function tick(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

describe('countdown figures (SPEC.md §4, §9)', () => {
  it('starts at 300 seconds', () => {
    expect(OFFER_SECONDS).toBe(300);
    expect(secondsLeft(0)).toBe(300);
  });

  it('drops by one each whole second and stops at 0', () => {
    expect(secondsLeft(999)).toBe(300);
    expect(secondsLeft(1000)).toBe(299);
    expect(secondsLeft(299_000)).toBe(1);
    expect(secondsLeft(300_000)).toBe(0);
    expect(secondsLeft(3_600_000)).toBe(0);
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
  it('shows 05:00 as a timer, left to right, and sets $app.timerSeconds to 300 on mount', () => {
    render(<OfferCountdown />);
    expect(screen.getByRole('timer').textContent).toBe('05:00');
    expect(screen.getByRole('timer').getAttribute('dir')).toBe('ltr');
    expect($app.get().timerSeconds).toBe(300);
  });

  it('counts down one second at a time', async () => {
    render(<OfferCountdown />);
    await tick(1000);
    expect(shown()).toBe('04:59');
    expect($app.get().timerSeconds).toBe(299);
    await tick(59_000);
    expect(shown()).toBe('04:00');
    expect($app.get().timerSeconds).toBe(240);
  });

  it('stops at 00:00 and never goes below 0', async () => {
    render(<OfferCountdown />);
    await tick(300_000);
    expect(shown()).toBe('00:00');
    expect($app.get().timerSeconds).toBe(0);
    await tick(10_000);
    expect(shown()).toBe('00:00');
    expect($app.get().timerSeconds).toBe(0);
  });

  it('resets $app.timerSeconds to null on leaving the screen (unmount)', async () => {
    const { unmount } = render(<OfferCountdown />);
    await tick(5000);
    expect($app.get().timerSeconds).toBe(295);
    unmount();
    expect($app.get().timerSeconds).toBeNull();
    await tick(5000);
    expect($app.get().timerSeconds).toBeNull();
  });

  it('resets $app.timerSeconds to null when the page is left (pagehide)', async () => {
    render(<OfferCountdown />);
    await tick(3000);
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect($app.get().timerSeconds).toBeNull();
    await tick(3000);
    expect($app.get().timerSeconds).toBeNull();
  });

  it('starts again from 05:00 when the page comes back from the back/forward cache', async () => {
    render(<OfferCountdown />);
    await tick(10_000);
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
      const pageshow = new Event('pageshow') as Event & { persisted: boolean };
      Object.defineProperty(pageshow, 'persisted', { value: true });
      window.dispatchEvent(pageshow);
    });
    expect(shown()).toBe('05:00');
    await tick(1000);
    expect(shown()).toBe('04:59');
  });

  it('restarts from 05:00 on every visit, whatever an earlier visit left behind', () => {
    $app.setKey('timerSeconds', 17);
    render(<OfferCountdown />);
    expect(shown()).toBe('05:00');
    expect($app.get().timerSeconds).toBe(300);
  });

  it('renders 05:00 on the server and hydrates without a mismatch, even with a stored value', async () => {
    $app.setKey('timerSeconds', 42);
    expect(renderToString(<OfferCountdown />)).toContain('05:00');
    const { problems, container } = await serverThenHydrate(<OfferCountdown />, {
      beforeHydrate: () => $app.setKey('timerSeconds', 42),
    });
    expect(problems).toEqual([]);
    expect(container.querySelector('[role="timer"]')?.textContent).toBe('05:00');
  });
});

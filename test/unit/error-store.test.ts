import { cleanStores, STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $error, showError, TOAST_DISMISS_MS } from '../../islands/stores/error';
import { $loader, setLoading } from '../../islands/stores/loader';

beforeEach(() => {
  $error.set({ show: false, message: '' });
  $loader.set({ enabled: false, message: '' });
});

describe('showError (SPEC.md §4 Error toast)', () => {
  it('with a string shows the toast with that message', () => {
    showError('Your card was declined.');
    expect($error.get()).toEqual({ show: true, message: 'Your card was declined.' });
  });

  it('with a new string replaces the message shown', () => {
    showError('First');
    showError('Second');
    expect($error.get()).toEqual({ show: true, message: 'Second' });
  });

  it('with false hides the toast and clears its message', () => {
    showError('Your card was declined.');
    showError(false);
    expect($error.get()).toEqual({ show: false, message: '' });
  });

  it('with true shows the toast and clears the previous message', () => {
    showError('Old message');
    showError(true);
    expect($error.get()).toEqual({ show: true, message: '' });
  });

  it('notifies listeners, so a mounted toast re-renders', () => {
    const seen: boolean[] = [];
    const unlisten = $error.listen((value) => seen.push(value.show));
    showError('Oops');
    showError(false);
    unlisten();
    expect(seen).toEqual([true, false]);
  });
});

describe('the toast clock (SPEC.md §4, §8: a toast clears itself after 3000 ms)', () => {
  beforeEach(() => {
    // A listener of an earlier test may have left the store mounted for its last second.
    cleanStores($error);
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());
  /** Lets the store's unmount, a second after its last listener, run. */
  const leave = (unlisten: () => void) => {
    unlisten();
    vi.advanceTimersByTime(STORE_UNMOUNT_DELAY);
  };

  it('counts nothing down while nobody listens, as on a page without the toast', () => {
    showError('Oops');
    vi.advanceTimersByTime(TOAST_DISMISS_MS * 2);
    expect($error.value).toEqual({ show: true, message: 'Oops' });
  });

  it('clears a message shown before the toast came, its time counted from then', () => {
    showError('Oops');
    const unlisten = $error.listen(() => {});
    vi.advanceTimersByTime(TOAST_DISMISS_MS - 1);
    expect($error.value?.show).toBe(true);
    vi.advanceTimersByTime(1);
    expect($error.value).toEqual({ show: false, message: '' });
    leave(unlisten);
  });

  it('restarts the clock for each message, the same text again included', () => {
    const unlisten = $error.listen(() => {});
    showError('Payment error');
    vi.advanceTimersByTime(2000);
    showError('Payment error');
    vi.advanceTimersByTime(2000);
    expect($error.value?.show).toBe(true);
    vi.advanceTimersByTime(1000);
    expect($error.value?.show).toBe(false);
    leave(unlisten);
  });

  it('stops counting once the last listener has gone', () => {
    const unlisten = $error.listen(() => {});
    leave(unlisten);
    showError('Oops');
    vi.advanceTimersByTime(TOAST_DISMISS_MS * 2);
    expect($error.value?.show).toBe(true);
  });

  it('leaves a message up when its listener goes before its time', () => {
    const unlisten = $error.listen(() => {});
    showError('Oops');
    leave(unlisten);
    vi.advanceTimersByTime(TOAST_DISMISS_MS);
    expect($error.value?.show).toBe(true);
  });
});

describe('setLoading', () => {
  it('turns the overlay on with an optional message and off with an empty one', () => {
    setLoading(true, 'Locating…');
    expect($loader.get()).toEqual({ enabled: true, message: 'Locating…' });
    setLoading(false);
    expect($loader.get()).toEqual({ enabled: false, message: '' });
  });
});

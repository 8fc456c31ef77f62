import { beforeEach, describe, expect, it } from 'vitest';
import { $error, showError } from '../../islands/stores/error';
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

describe('setLoading', () => {
  it('turns the overlay on with an optional message and off with an empty one', () => {
    setLoading(true, 'Locating…');
    expect($loader.get()).toEqual({ enabled: true, message: 'Locating…' });
    setLoading(false);
    expect($loader.get()).toEqual({ enabled: false, message: '' });
  });
});

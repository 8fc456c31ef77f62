// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ErrorToast from '../../../islands/ErrorToast';
import { $error, showError, TOAST_DISMISS_MS } from '../../../islands/stores/error';
import { serverThenHydrate } from './hydrate';
import { applyPageCss } from './page-css';

beforeEach(() => {
  $error.set({ show: false, message: '' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const toastText = () => document.querySelector('.toast__message')?.textContent ?? null;
const say = (value: string | boolean) => act(() => showError(value));

describe('ErrorToast (SPEC.md §4 Error toast, §8 UI toast)', () => {
  it('shows nothing until an error is set, in a live region that is already there', () => {
    render(<ErrorToast closeLabel="Close" />);
    expect(screen.getByRole('alert').textContent).toBe('');
    expect(toastText()).toBeNull();
  });

  it('shows the message a string sets', () => {
    render(<ErrorToast closeLabel="Close" />);
    say('Your card was declined.');
    expect(screen.getByRole('alert').textContent).toContain('Your card was declined.');
  });

  it('hides the toast when set to false', () => {
    render(<ErrorToast closeLabel="Close" />);
    say('Your card was declined.');
    say(false);
    expect(toastText()).toBeNull();
    expect($error.get()).toEqual({ show: false, message: '' });
  });

  it('set to true shows no stale message', () => {
    render(<ErrorToast closeLabel="Close" />);
    say('Old message');
    say(true);
    expect(toastText()).toBeNull();
  });

  it('clears itself after 3000 ms, not before', () => {
    vi.useFakeTimers();
    render(<ErrorToast closeLabel="Close" />);
    say('Phone number is incorrect');
    expect(TOAST_DISMISS_MS).toBe(3000);
    act(() => vi.advanceTimersByTime(2999));
    expect(toastText()).toBe('Phone number is incorrect');
    act(() => vi.advanceTimersByTime(1));
    expect(toastText()).toBeNull();
    expect($error.get().show).toBe(false);
  });

  it('restarts the clock for a new message', () => {
    vi.useFakeTimers();
    render(<ErrorToast closeLabel="Close" />);
    say('First');
    act(() => vi.advanceTimersByTime(2000));
    say('Second');
    act(() => vi.advanceTimersByTime(2000));
    expect(toastText()).toBe('Second');
    act(() => vi.advanceTimersByTime(1000));
    expect(toastText()).toBeNull();
  });

  it('restarts the clock when the same message comes again', () => {
    vi.useFakeTimers();
    render(<ErrorToast closeLabel="Close" />);
    say('Payment error');
    act(() => vi.advanceTimersByTime(2000));
    say('Payment error');
    act(() => vi.advanceTimersByTime(2000));
    expect(toastText()).toBe('Payment error');
  });

  it('closes on its close cross, a button named by the close label', async () => {
    render(<ErrorToast closeLabel="Close" />);
    say('Payment error');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(toastText()).toBeNull();
    expect($error.get().show).toBe(false);
  });

  it('is a red box with white text, whatever the theme', () => {
    const removeCss = applyPageCss('family-locator');
    render(<ErrorToast closeLabel="Close" />);
    say('Payment error');
    const box = getComputedStyle(document.querySelector('.toast')!);
    expect(box.backgroundColor.toLowerCase()).toBe('#d92d20');
    expect(box.color.toLowerCase()).toBe('#fff');
    removeCss();
  });

  it('hydrates the server HTML without a mismatch', async () => {
    const { problems, container } = await serverThenHydrate(<ErrorToast closeLabel="Close" />);
    expect(problems).toEqual([]);
    container.remove();
  });
});

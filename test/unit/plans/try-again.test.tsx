// @vitest-environment happy-dom
import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { $anotherCardAsked, $declinedReturn } from '../../../islands/stores/payment';
import TryAgain from '../../../islands/TryAgain';

/**
 * 'Payment declined' → Try again (SPEC.md §8). That the page script moves a Skip's or Try
 * again's form to the screen the worker named, keeping the query, is the funnel journey's in
 * Chromium (test/browser/sign-up.test.ts); which screen each names is workerd's
 * (test/worker/next-screen-html.test.ts).
 */

beforeAll(() => useTestStorageEngine());
afterEach(() => {
  cleanup();
  cleanTestStorage();
  vi.restoreAllMocks();
  $declinedReturn.set('');
  $anotherCardAsked.set('');
});

const PROPS = {
  action: '/payment_declined?gclid=money',
  next: '/checkout_v3_tr?gclid=money',
  label: 'Try again',
};

/** Presses Try again; returns where the page went (the page script's navigate replaces it). */
async function pressTryAgain(): Promise<unknown[][]> {
  const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => {});
  const posted = vi.fn();
  document.addEventListener('submit', (event) => posted(event.defaultPrevented), { once: true });
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  // Moved by the island: no post to the worker.
  expect(posted).toHaveBeenCalledWith(true);
  return replace.mock.calls;
}

describe('TryAgain', () => {
  it('opens the worker’s default checkout when no checkout was paid on in this browser', async () => {
    render(<TryAgain {...PROPS} />);
    expect(await pressTryAgain()).toEqual([['/checkout_v3_tr?gclid=money']]);
    expect($anotherCardAsked.get()).toBe('');
  });

  it('goes back to the checkout the decline came from, with its query', async () => {
    $declinedReturn.set('/checkout_h3_pp?gclid=money');
    render(<TryAgain {...PROPS} />);
    expect(await pressTryAgain()).toEqual([['/checkout_h3_pp?gclid=money']]);
  });

  it('posts to the worker, which answers its default checkout, when it knows no screen to open', async () => {
    render(<TryAgain {...PROPS} next={null} />);
    // What reached the document: a submit the island left alone (stopped here, as happy-dom
    // would otherwise follow it).
    const posted = vi.fn((event: Event) => {
      const prevented = event.defaultPrevented;
      event.preventDefault();
      return prevented;
    });
    const form = screen.getByRole('button', { name: 'Try again' }).closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/payment_declined?gclid=money');
    document.addEventListener('submit', posted, { once: true });
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => {});
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    // The island left the press alone: the browser's own post would go on.
    expect(posted).toHaveReturnedWith(false);
    expect(replace).not.toHaveBeenCalled();
  });
});

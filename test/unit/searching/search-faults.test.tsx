// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PhoneInfo } from '../../../islands/phone/lookup';
import { SEARCH_DURATION_MS } from '../../../islands/phone/search-timeline';
import SearchProgress from '../../../islands/SearchProgress';
import { $error } from '../../../islands/stores/error';
import { $map } from '../../../islands/stores/map';
import { renderWithIslands } from '../../../screens/layout/Island';
import { SCREENS } from '../../../screens/registry';
import { shippedTranslator } from '../../../worker/i18n';
import { FAULT_ANSWERS, type WorkerAnswer } from '../../fixtures/portal-fault-answers';
import { islandProps, renderScreenProps } from '../plans/render-screen';

/**
 * The searching screen when the product API fails: the worker's answer for each portal fault
 * (test/fixtures/portal-fault-answers.ts, proved in test/worker/api/portal-fault-answers.test.ts)
 * through the real lookup to the SPEC.md §8 text, Continue off; reloaded once the portal is back,
 * the same screen locates the number and lets the visitor on.
 */

const PHONE = '+447400123456';

/** What the portal knows of the number, passed on by the worker once it answers again. */
const LOCATED: PhoneInfo = {
  phone: PHONE,
  valid: true,
  country: 'GB',
  type: 'MOBILE',
  carrier: 'Fake Mobile',
  city: 'London',
  timezone: 'Europe/London',
  location: { lat: 51.5074, lng: -0.1278 },
};

/** The island's props as the worker renders the searching screen in English. */
const props = await (async () => {
  const { Component } = SCREENS.searching;
  const { html } = await renderWithIslands(
    <Component {...renderScreenProps(shippedTranslator('en'), 'searching')} />,
  );
  const document = new DOMParser().parseFromString(html, 'text/html');
  return islandProps<ComponentProps<typeof SearchProgress>>(document, 'SearchProgress');
})();

/** The worker's /api: the lookup answers `lookup`; geocoding is down (the capital is used). */
function stubApi(lookup: WorkerAnswer | { status: 200; body: { data: PhoneInfo } }) {
  const fetch = vi.fn(async (url: string) =>
    url === `/api/phone-number-info/${encodeURIComponent(PHONE)}`
      ? Response.json(lookup.body, { status: lookup.status })
      : Response.json({ errors: { messages: [] }, code: 'geocode_failed' }, { status: 502 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The screen opened (or reloaded): its island mounted afresh on the stored number. */
async function openSearching() {
  cleanup();
  render(<SearchProgress {...props} />);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(SEARCH_DURATION_MS);
  });
}

const continueButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });

// The lookup loads the API client and the shown number's module on its first call
// (islands/phone/lookup.ts): loaded here first, with real timers, so a busy machine's first load
// never outlasts the fake timers' advance below (the fetch was not yet made when it ended, once,
// with the unit files yielding to the browser files: scripts/test-parts.ts).
beforeAll(async () => {
  await Promise.all([
    import('../../../islands/api/client'),
    import('#browser-only/islands/phone/shown-phone-info'),
  ]);
});

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  $map.set({ phone: PHONE, phoneDisplay: '+44 7400 123456', numberData: null, initCoords: null });
  $error.set({ show: false, message: '' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe.each(FAULT_ANSWERS)('the portal $fault', ({ lookup, lookupText }) => {
  it(`the search reads "${lookupText}", then locates the number once the portal is back`, async () => {
    const failing = stubApi(lookup);
    await openSearching();
    expect(failing).toHaveBeenCalledWith(
      `/api/phone-number-info/%2B447400123456`,
      expect.anything(),
    );
    expect(screen.getByRole('alert').textContent).toBe(lookupText);
    expect($error.get()).toEqual({ show: true, message: lookupText });
    expect(continueButton().disabled).toBe(true);

    stubApi({ status: 200, body: { data: LOCATED } });
    await openSearching();
    expect(continueButton().disabled).toBe(false);
    expect(screen.getByText('Carrier').closest('.search__row')?.textContent).toContain(
      'Fake Mobile',
    );
  });
});

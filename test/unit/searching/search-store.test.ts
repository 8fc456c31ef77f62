// @vitest-environment happy-dom
import { STORE_UNMOUNT_DELAY } from 'nanostores';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DURATION_MS } from '../../../islands/phone/search-timeline';
import { $error } from '../../../islands/stores/error';
import { $map } from '../../../islands/stores/map';
import { SEARCH_TICK_MS, searchStore } from '../../../islands/stores/search';
import { GEOCODED, US_INFO } from './located-number';

const lookup = vi.hoisted(() => ({ lookupPhone: vi.fn() }));
vi.mock('../../../islands/phone/lookup', async (original) => ({
  ...(await original<typeof import('../../../islands/phone/lookup')>()),
  lookupPhone: lookup.lookupPhone,
}));
const { PhoneLookupError } = await import('../../../islands/phone/lookup');
const geocoding = vi.hoisted(() => ({ mapPointOf: vi.fn() }));
vi.mock('../../../islands/phone/map-point', () => ({ mapPointOf: geocoding.mapPointOf }));
const analytics = vi.hoisted(() => ({ emit: vi.fn() }));
vi.mock('../../../islands/analytics/emit', () => ({ emit: analytics.emit }));

const ERRORS = {
  phone_incorrect: 'Phone number is incorrect',
  lookup_failed: 'An error occurred, please try again',
  rate_limited: 'Too many attempts.',
};

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  $map.set({
    phone: '+12015550123',
    phoneDisplay: '+1 201 555 0123',
    numberData: null,
    initCoords: null,
  });
  $error.set({ show: false, message: '' });
  lookup.lookupPhone.mockReset();
  lookup.lookupPhone.mockResolvedValue(US_INFO);
  geocoding.mapPointOf.mockReset();
  geocoding.mapPointOf.mockResolvedValue(GEOCODED);
  analytics.emit.mockReset();
});
afterEach(() => {
  vi.useRealTimers();
});

/** What the island does once committed: listens, which starts the search. */
const listenTo = ($search: { listen: (listener: () => void) => () => void }) =>
  $search.listen(() => {});

describe('the search store (SPEC.md §2 searching screens)', () => {
  it('stops at missing, sending nothing, when no number is stored', () => {
    $map.setKey('phone', '');
    const $search = searchStore(ERRORS);
    listenTo($search);
    expect($search.get().phase).toBe('missing');
    expect(lookup.lookupPhone).not.toHaveBeenCalled();
    expect(analytics.emit).not.toHaveBeenCalled();
  });

  it('searches the stored number, keeps the answer and the point, and ends done', async () => {
    const $search = searchStore(ERRORS);
    listenTo($search);
    expect($search.get()).toMatchObject({ phase: 'searching', phone: '+1 201 555 0123' });
    expect(analytics.emit).toHaveBeenCalledWith('processing_started');
    await vi.advanceTimersByTimeAsync(SEARCH_TICK_MS);
    expect($search.get()).toMatchObject({ info: US_INFO, point: GEOCODED });
    expect($map.get()).toMatchObject({ numberData: US_INFO, initCoords: GEOCODED });
    expect($search.get().progress).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(SEARCH_DURATION_MS);
    expect($search.get()).toMatchObject({ phase: 'done', progress: 100 });
  });

  it('takes over a posted number, as the landing would have stored it', () => {
    const $search = searchStore(ERRORS, {
      phone: '+33612345678',
      phoneDisplay: '+33 6 12 34 56 78',
      country: 'FR',
    });
    // Read without a listener (as the first render does): shown at once, nothing started yet.
    expect($search.value?.phone).toBe('+33 6 12 34 56 78');
    expect(lookup.lookupPhone).not.toHaveBeenCalled();
    listenTo($search);
    expect($map.get()).toMatchObject({ phone: '+33612345678', numberData: null });
    expect(analytics.emit).toHaveBeenCalledWith('onboarding_start', { country: 'FR' });
    expect(lookup.lookupPhone).toHaveBeenCalledWith('+33612345678', { remembered: null });
  });

  it('fails with the error code text, shown in the toast, and stops the clock', async () => {
    lookup.lookupPhone.mockRejectedValue(new PhoneLookupError('rate_limited'));
    const $search = searchStore(ERRORS);
    listenTo($search);
    await vi.advanceTimersByTimeAsync(0);
    expect($search.get()).toMatchObject({ phase: 'failed', failure: ERRORS.rate_limited });
    expect($error.get()).toEqual({ show: true, message: ERRORS.rate_limited });
    const progress = $search.get().progress;
    await vi.advanceTimersByTimeAsync(SEARCH_DURATION_MS);
    expect($search.get().progress).toBe(progress);
  });

  it('starts with its first listener only, once for several', () => {
    const $search = searchStore(ERRORS);
    expect(lookup.lookupPhone).not.toHaveBeenCalled();
    listenTo($search);
    listenTo($search);
    expect(lookup.lookupPhone).toHaveBeenCalledTimes(1);
    expect(analytics.emit).toHaveBeenCalledTimes(1);
  });

  it('keeps searching through a listener that leaves and one that comes back at once', async () => {
    const $search = searchStore(ERRORS);
    listenTo($search)();
    listenTo($search);
    await vi.advanceTimersByTimeAsync(SEARCH_DURATION_MS);
    expect(lookup.lookupPhone).toHaveBeenCalledTimes(1);
    expect($search.value).toMatchObject({ phase: 'done', progress: 100 });
  });

  it('stops its clock and drops the answer a second after the last listener leaves', async () => {
    let answer: (info: typeof US_INFO) => void = () => {};
    lookup.lookupPhone.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const $search = searchStore(ERRORS);
    const leave = listenTo($search);
    await vi.advanceTimersByTimeAsync(SEARCH_TICK_MS);
    leave();
    await vi.advanceTimersByTimeAsync(STORE_UNMOUNT_DELAY);
    const stopped = $search.value;
    answer(US_INFO);
    await vi.advanceTimersByTimeAsync(SEARCH_DURATION_MS * 2);
    // `value`, not get(): reading with get() would be a listener again and search anew.
    expect($search.value).toBe(stopped);
    expect($search.value).toMatchObject({ phase: 'searching', info: null });
    expect($map.get().numberData).toBeNull();
  });
});

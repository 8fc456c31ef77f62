// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PhoneInfo } from '../../../islands/phone/lookup';
import {
  REDUCED_MOTION_SEARCH_DURATION_MS,
  SEARCH_DURATION_MS,
} from '../../../islands/phone/search-timeline';
import SearchProgress, { type SearchLabels } from '../../../islands/SearchProgress';
import { $error } from '../../../islands/stores/error';
import { $map } from '../../../islands/stores/map';
import { serverThenHydrate } from '../kit/hydrate';
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

const LABELS: SearchLabels = {
  progress: 'Search progress',
  steps: {
    base_station: 'Connecting to the cellular base station',
    operator: 'Identifying the network operator',
    phone: 'Connecting to the phone',
    located: 'Number located',
  },
  number: 'Phone number',
  located: 'Number located',
  locatedPhone: 'Phone number',
  map: 'Map of the area around the located phone',
  rows: {
    carrier: 'Carrier',
    country: 'Country',
    timezone: 'Time zone',
    city: 'City',
    location: 'Location',
  },
  types: { MOBILE: 'Mobile network' },
  unknown: 'Not available yet',
  missingTitle: 'There is no phone number to search for yet.',
  missingText: 'Enter the number you want to locate on the first screen.',
  back: 'Enter a phone number',
  errors: {
    phone_incorrect: 'Phone number is incorrect',
    lookup_failed: 'An error occurred, please try again',
    rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  },
  continue: 'Continue',
};

const element = (variant: 'classic' | 'map_first' | 'ai' = 'classic', staticMap = false) => (
  <SearchProgress
    staticMap={staticMap}
    variant={variant}
    action="/searching?gclid=1"
    next="/signup?gclid=1"
    backUrl="/?gclid=1"
    language="en"
    labels={LABELS}
  />
);

const continueButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Continue' });
const progress = () => Number(screen.getByRole('progressbar').getAttribute('aria-valuenow'));
const stepClass = (label: string) => screen.getByText(label).className;

async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
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
  localStorage.clear();
  $map.set({
    phone: '+12015550123',
    phoneDisplay: '+1 201 555 0123',
    numberData: null,
    initCoords: null,
  });
  lookup.lookupPhone.mockReset();
  lookup.lookupPhone.mockResolvedValue(US_INFO);
  geocoding.mapPointOf.mockReset();
  geocoding.mapPointOf.mockResolvedValue(GEOCODED);
  analytics.emit.mockReset();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('SearchProgress (SPEC.md §2 searching screens)', () => {
  it('shows the number being searched, formatted, with Continue off while it searches', async () => {
    render(element());
    await elapse(0);
    expect(screen.getByText('+1 201 555 0123')).toBeTruthy();
    expect(continueButton().disabled).toBe(true);
    expect(continueButton().id).toBe('continue-button');
  });

  it('walks the steps in order as the progress grows', async () => {
    render(element());
    await elapse(0);
    expect(stepClass(LABELS.steps.base_station)).toContain('search__step--active');
    await elapse(SEARCH_DURATION_MS * 0.3);
    expect(progress()).toBeGreaterThanOrEqual(25);
    expect(stepClass(LABELS.steps.base_station)).toContain('search__step--done');
    expect(stepClass(LABELS.steps.operator)).toContain('search__step--active');
    expect(stepClass(LABELS.steps.phone)).toContain('search__step--pending');
  });

  it('with motion allowed, keeps Continue off for the whole search of a few seconds', async () => {
    // The lookup has answered at once: only the animation holds Continue back.
    render(element());
    await elapse(SEARCH_DURATION_MS - 500);
    expect(progress()).toBeLessThan(100);
    expect(continueButton().disabled).toBe(true);
    await elapse(500);
    expect(progress()).toBe(100);
    expect(continueButton().disabled).toBe(false);
  });

  it('ends located: carrier, country, time zone, city, location and a map; Continue on', async () => {
    render(element());
    await elapse(SEARCH_DURATION_MS);
    expect(progress()).toBe(100);
    expect(continueButton().disabled).toBe(false);
    const rows = Object.fromEntries(
      [...document.querySelectorAll('.search__row')].map((row) => [
        row.querySelector('dt')?.textContent,
        row.querySelector('dd')?.textContent,
      ]),
    );
    expect(rows).toEqual({
      Carrier: 'Mobile network',
      Country: 'United States',
      'Time zone': expect.stringMatching(/^GMT-[45] \(New York\)$/),
      City: 'Washington',
      Location: '38.8951, -77.0364',
    });
    expect(screen.getByRole('img', { name: LABELS.map })).toBeTruthy();
    expect(document.querySelector('.located-banner')?.textContent).toContain('+1 201 555 0123');
  });

  it('lays the worker’s real map of the geocoded point over the drawn one, once it loads', async () => {
    render(element('classic', true));
    await elapse(SEARCH_DURATION_MS);
    const picture = document.querySelector<HTMLImageElement>('.area-map img');
    expect(picture?.getAttribute('src')).toBe('/api/area-map?at=38.8951,-77.0364');
    expect([picture?.getAttribute('width'), picture?.getAttribute('height')]).toEqual([
      '343',
      '200',
    ]);
    // The drawn map stays beneath, named for screen readers; the picture says nothing twice.
    expect(picture?.alt).toBe('');
    expect(screen.getByRole('img', { name: LABELS.map })).toBeTruthy();
    expect(picture?.className).not.toContain('area-map__picture--shown');
    await act(async () => picture?.dispatchEvent(new Event('load')));
    expect(picture?.className).toContain('area-map__picture--shown');
  });

  it('keeps only the drawn map when the worker draws none for the point', async () => {
    render(element('classic', true));
    await elapse(SEARCH_DURATION_MS);
    const picture = document.querySelector('.area-map img');
    await act(async () => picture?.dispatchEvent(new Event('error')));
    expect(document.querySelector('.area-map img')).toBeNull();
    expect(screen.getByRole('img', { name: LABELS.map })).toBeTruthy();
  });

  it('asks for no picture without a maps key, nor of a point geocoding did not give', async () => {
    render(element());
    await elapse(SEARCH_DURATION_MS);
    expect(document.querySelector('.area-map img')).toBeNull();
    cleanup();
    // A number not looked up yet (the first search kept its point): geocoding gives none.
    $map.set({ ...$map.get(), numberData: null, initCoords: null });
    geocoding.mapPointOf.mockResolvedValue(null);
    render(element('classic', true));
    await elapse(SEARCH_DURATION_MS);
    expect(document.querySelector('.area-map')).not.toBeNull();
    expect(document.querySelector('.area-map img')).toBeNull();
  });

  it('keeps the lookup in $map.numberData and the geocoded point in $map.initCoords', async () => {
    render(element());
    await elapse(0);
    expect(lookup.lookupPhone).toHaveBeenCalledWith('+12015550123', { remembered: null });
    expect($map.get().numberData).toEqual(US_INFO);
    expect(geocoding.mapPointOf).toHaveBeenCalledWith(US_INFO);
    expect($map.get().initCoords).toEqual(GEOCODED);
  });

  it('shows the lookup’s point until geocoding answers, then moves the map there', async () => {
    let answer: (point: typeof GEOCODED) => void = () => {};
    geocoding.mapPointOf.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { container } = render(element());
    await elapse(SEARCH_DURATION_MS);
    // Geocoding holds up neither the end of the search nor the map.
    expect(continueButton().disabled).toBe(false);
    const locationRow = () =>
      [...container.querySelectorAll('.search__row dd')].at(-1)?.textContent;
    const pin = () => container.querySelector('.area-map__pin')?.getAttribute('transform');
    const streets = () => container.querySelector('.area-map__streets')?.getAttribute('d');
    expect(locationRow()).toBe('38.9072, -77.0369');
    const before = streets();
    await act(async () => answer(GEOCODED));
    expect(locationRow()).toBe('38.8951, -77.0364');
    expect($map.get().initCoords).toEqual(GEOCODED);
    // The drawn area is the 3000 m around the new point (SPEC.md §9): its streets change, the pin
    // stays at its centre.
    expect(streets()).not.toBe(before);
    expect(pin()).toBe('translate(171.5 100.0)');
  });

  it('a reload keeps the point found for this number: no second geocoding', async () => {
    $map.setKey('numberData', US_INFO);
    $map.setKey('initCoords', GEOCODED);
    render(element());
    await elapse(0);
    expect(geocoding.mapPointOf).not.toHaveBeenCalled();
    expect($map.get().initCoords).toEqual(GEOCODED);
  });

  it('never claims "located" before the lookup has answered', async () => {
    let answer: (info: PhoneInfo) => void = () => {};
    lookup.lookupPhone.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    render(element());
    await elapse(SEARCH_DURATION_MS * 2);
    expect(progress()).toBe(99);
    expect(continueButton().disabled).toBe(true);
    answer(US_INFO);
    await elapse(200);
    expect(progress()).toBe(100);
    expect(continueButton().disabled).toBe(false);
  });

  it('is over in a moment for visitors who prefer reduced motion', async () => {
    preferReducedMotion(true);
    render(element());
    await elapse(REDUCED_MOTION_SEARCH_DURATION_MS);
    expect(progress()).toBe(100);
    expect(continueButton().disabled).toBe(false);
  });

  it('opened without a number, says so and links back to the landing, no crash', async () => {
    $map.set({ phone: '', phoneDisplay: '', numberData: null, initCoords: null });
    render(element());
    await elapse(0);
    expect(screen.getByRole('alert').textContent).toContain(LABELS.missingTitle);
    const back = screen.getByRole('link', { name: LABELS.back });
    expect(back.getAttribute('href')).toBe('/?gclid=1');
    expect(continueButton().disabled).toBe(true);
    expect(lookup.lookupPhone).not.toHaveBeenCalled();
  });

  it('says "Phone number is incorrect" when the lookup refuses the number (SPEC.md §8)', async () => {
    lookup.lookupPhone.mockRejectedValue(new PhoneLookupError('phone_incorrect'));
    render(element());
    await elapse(0);
    expect(screen.getByRole('alert').textContent).toBe(LABELS.errors.phone_incorrect);
    expect($error.get()).toEqual({ show: true, message: LABELS.errors.phone_incorrect });
    expect(continueButton().disabled).toBe(true);
    expect(screen.getByRole('link', { name: LABELS.back })).toBeTruthy();
  });

  it('says "An error occurred, please try again" when the lookup fails otherwise', async () => {
    lookup.lookupPhone.mockRejectedValue(new Error('offline'));
    render(element());
    await elapse(0);
    expect(screen.getByRole('alert').textContent).toBe(LABELS.errors.lookup_failed);
  });

  it('says the limit text when the lookup is rate-limited', async () => {
    lookup.lookupPhone.mockRejectedValue(new PhoneLookupError('rate_limited'));
    render(element());
    await elapse(0);
    expect(screen.getByRole('alert').textContent).toBe(LABELS.errors.rate_limited);
    expect($error.get().message).toBe(LABELS.errors.rate_limited);
  });

  it('hands the lookup what $map already holds, so a reload can reuse it', async () => {
    $map.setKey('numberData', US_INFO);
    render(element());
    await elapse(0);
    expect(lookup.lookupPhone).toHaveBeenCalledWith('+12015550123', { remembered: US_INFO });
  });

  it('leads with the map on the map-first variant, while it searches', async () => {
    const { container } = render(element('map_first'));
    await elapse(0);
    const map = container.querySelector('.area-map')!;
    expect(map.compareDocumentPosition(screen.getByRole('progressbar'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(container.querySelector('.area-map__radar')).not.toBeNull();
  });

  it('hydrates the server HTML without a mismatch, then reads the stored number', async () => {
    const { container, serverHtml, problems } = await serverThenHydrate(element('ai'));
    expect(problems).toEqual([]);
    // The server cannot know the number: it renders the first step and an enabled Continue,
    // which still moves on if the script never arrives.
    expect(serverHtml).not.toContain('201 555');
    expect(serverHtml).not.toMatch(/<button[^>]*disabled/);
    await elapse(0);
    expect(container.textContent).toContain('+1 201 555 0123');
  });

  it('takes the number the worker accepted from the landing post over the stored one', async () => {
    const posted = { phone: '+447400123456', phoneDisplay: '+44 7400 123456', country: 'GB' };
    $map.setKey('numberData', { phone: '+12015550123' });
    const { container, serverHtml, problems } = await serverThenHydrate(
      <SearchProgress
        variant="classic"
        action="/searching"
        next="/signup"
        backUrl="/"
        language="en"
        labels={LABELS}
        posted={posted}
      />,
    );
    expect(problems).toEqual([]);
    // Without script the page already shows the number the visitor posted.
    expect(serverHtml).toContain('+44 7400 123456');
    await elapse(0);
    expect(container.textContent).toContain('+44 7400 123456');
    expect($map.get().phone).toBe('+447400123456');
    // The previous number's lookup is stale, as when the landing's island stores a new number.
    expect(lookup.lookupPhone).toHaveBeenCalledWith('+447400123456', { remembered: null });
    expect(analytics.emit).toHaveBeenCalledWith('onboarding_start', { country: 'GB' });
  });
});

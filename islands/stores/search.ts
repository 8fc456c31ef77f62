import { map, onMount } from 'nanostores';
import type { Coordinates } from '../../shared/api/contract';
import type { ErrorTexts, PhoneLookupErrorKey } from '../../shared/api/error-text';
import type { PostedPhone } from '../../shared/phone/posted-phone';
import { emit } from '../analytics/emit';
import { lookupPhone, type PhoneInfo, PhoneLookupError } from '../phone/lookup';
import {
  REDUCED_MOTION_SEARCH_DURATION_MS,
  SEARCH_DURATION_MS,
  searchProgress,
} from '../phone/search-timeline';
import { browserOnly } from './browser-only';
import { showError } from './error';
import { $map } from './map';

/** How often the progress moves; small enough to look smooth, big enough to stay cheap. */
export const SEARCH_TICK_MS = 100;

export type SearchPhase = 'starting' | 'missing' | 'searching' | 'done' | 'failed';

/** What the searching screens show (SPEC.md §2), from the number's lookup and a clock. */
export interface SearchState {
  phase: SearchPhase;
  /** The number as shown; the lookup reads the stored E.164 itself. */
  phone: string;
  /** 0 to 100. */
  progress: number;
  info: PhoneInfo | null;
  /** The map's point once found; until then the map shows the lookup's own. */
  point: Coordinates | null;
  /** The SPEC.md §8 text of a failed lookup. */
  failure: string | null;
}

export type SearchStore = ReturnType<typeof searchStore>;

/**
 * One search's state and its work. The server and the first client render both show
 * 'starting': the number lives in the browser's storage only, read as the search starts (or
 * comes from the worker's post, shown at once). The search starts when the store gets its first
 * listener (the island, once committed: islands/kit/use-working-store.ts) and stops a second
 * after the last one leaves; `errors` are the SPEC.md §8 texts a failed lookup shows.
 */
export function searchStore(errors: ErrorTexts<PhoneLookupErrorKey>, posted?: PostedPhone) {
  const $search = browserOnly(
    map<SearchState>({
      phase: 'starting',
      phone: posted?.phoneDisplay ?? '',
      progress: 0,
      info: null,
      point: null,
      failure: null,
    }),
    'search',
  );
  onMount($search, () => startSearch($search, errors, posted));
  return $search;
}

/**
 * The map's point for a located number (islands/phone/map-point.ts: geocoded, else the capital),
 * loaded once the lookup has answered; the lookup's own point if even that code cannot load.
 */
async function mapPoint(info: PhoneInfo): Promise<Coordinates | null> {
  try {
    return await (await import('#browser-only/islands/phone/map-point')).mapPointOf(info);
  } catch {
    return info.location;
  }
}

/** The number the landing's form posted before its script ran takes the place of a stored one. */
function adoptPosted(posted: PostedPhone): void {
  // As the landing's island does on Locate: a new number makes the previous lookup stale.
  $map.set({
    phone: posted.phone,
    phoneDisplay: posted.phoneDisplay,
    numberData: null,
    initCoords: null,
  });
  // SPEC.md §4 onboarding_start, which the landing's island did not get to send.
  emit('onboarding_start', { country: posted.country });
}

/** Moves the progress every tick until it reaches 100; resolves the stop. */
function runClock($search: SearchStore): () => void {
  const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  const duration = reducedMotion ? REDUCED_MOTION_SEARCH_DURATION_MS : SEARCH_DURATION_MS;
  let elapsed = 0;
  const timer = setInterval(() => {
    elapsed += SEARCH_TICK_MS;
    const percent = searchProgress(elapsed, duration, $search.get().info !== null);
    $search.setKey('progress', percent);
    if (percent === 100) {
      clearInterval(timer);
      $search.setKey('phase', 'done');
    }
  }, SEARCH_TICK_MS);
  return () => clearInterval(timer);
}

/**
 * Starts the search of the number in $map.phone (set by the landing, or `posted`): the clock,
 * and the lookup (lookupPhone(), kept in $map.numberData) then the map's point (mapPoint(),
 * SPEC.md §7 geocoding, kept in $map.initCoords). Without a number it stops at 'missing'; a
 * failed lookup shows the text `errors` has for its code.
 * Returns the stop: nothing is written after it.
 */
function startSearch(
  $search: SearchStore,
  errors: ErrorTexts<PhoneLookupErrorKey>,
  posted?: PostedPhone,
): () => void {
  if (posted) adoptPosted(posted);
  const { phone: stored, phoneDisplay, numberData, initCoords } = $map.get();
  if (!stored) {
    $search.setKey('phase', 'missing');
    return () => {};
  }
  $search.set({ ...$search.get(), phone: phoneDisplay || stored, phase: 'searching' });
  emit('processing_started');
  let live = true;
  const stopClock = runClock($search);
  // A reload reuses the answer already kept for this number (islands/phone/lookup.ts), and
  // the point found for it: not geocoded again.
  const kept = numberData?.phone === stored ? initCoords : null;
  lookupPhone(stored, { remembered: numberData })
    .then(async (result) => {
      if (!live) return;
      $map.setKey('numberData', result);
      $search.setKey('info', result);
      const found = kept ?? (await mapPoint(result));
      if (!live) return;
      $map.setKey('initCoords', found);
      $search.setKey('point', found);
    })
    .catch((error: unknown) => {
      if (!live) return;
      stopClock();
      const message = errors[error instanceof PhoneLookupError ? error.code : 'lookup_failed'];
      $search.set({ ...$search.get(), failure: message, phase: 'failed' });
      showError(message);
    });
  return () => {
    live = false;
    stopClock();
  };
}

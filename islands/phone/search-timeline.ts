/**
 * SPEC.md §2 searching steps, in order: connecting to the cellular base station, identifying the
 * network operator, connecting to the phone, then number located.
 */
export const SEARCH_STEPS = ['base_station', 'operator', 'phone', 'located'] as const;
export type StepState = 'done' | 'active' | 'pending';

/** How long the search animation runs: a few seconds, or a moment for prefers-reduced-motion. */
export const SEARCH_DURATION_MS = 6000;
export const REDUCED_MOTION_SEARCH_DURATION_MS = 900;

/**
 * Percent shown after `elapsedMs` of a `durationMs` search. The last percent waits for the
 * lookup: the screen never claims "located" before the data is there.
 */
export function searchProgress(elapsedMs: number, durationMs: number, lookupDone: boolean): number {
  const share = durationMs > 0 ? Math.max(0, elapsedMs) / durationMs : 1;
  const percent = Math.min(100, Math.floor(share * 100));
  return lookupDone ? percent : Math.min(percent, 99);
}

/** Each step is done once the progress passes its share, the first unfinished one is active. */
export function stepStates(progress: number): StepState[] {
  const share = 100 / SEARCH_STEPS.length;
  return SEARCH_STEPS.map((_, index) => {
    if (progress >= share * (index + 1)) return 'done';
    if (progress >= share * index) return 'active';
    return 'pending';
  });
}

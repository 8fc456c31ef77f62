import { describe, expect, it } from 'vitest';
import {
  REDUCED_MOTION_SEARCH_DURATION_MS,
  SEARCH_DURATION_MS,
  SEARCH_STEPS,
  searchProgress,
  stepStates,
} from '../../../islands/phone/search-timeline';

describe('search timeline (SPEC.md §2 searching steps)', () => {
  it('has the four steps of the spec, in order', () => {
    expect(SEARCH_STEPS).toEqual(['base_station', 'operator', 'phone', 'located']);
  });

  it('runs a few seconds, and only a moment for reduced motion', () => {
    expect(SEARCH_DURATION_MS).toBeGreaterThanOrEqual(3000);
    expect(SEARCH_DURATION_MS).toBeLessThanOrEqual(10_000);
    expect(REDUCED_MOTION_SEARCH_DURATION_MS).toBeLessThan(SEARCH_DURATION_MS / 3);
  });

  it('grows from 0 to 100 percent over the duration', () => {
    expect(searchProgress(0, 6000, true)).toBe(0);
    expect(searchProgress(3000, 6000, true)).toBe(50);
    expect(searchProgress(6000, 6000, true)).toBe(100);
    expect(searchProgress(9000, 6000, true)).toBe(100);
  });

  it('holds at 99 until the lookup has answered', () => {
    expect(searchProgress(6000, 6000, false)).toBe(99);
    expect(searchProgress(60_000, 6000, false)).toBe(99);
    expect(searchProgress(1500, 6000, false)).toBe(25);
  });

  it('marks steps done as the progress passes each quarter, the next one active', () => {
    expect(stepStates(0)).toEqual(['active', 'pending', 'pending', 'pending']);
    expect(stepStates(30)).toEqual(['done', 'active', 'pending', 'pending']);
    expect(stepStates(99)).toEqual(['done', 'done', 'done', 'active']);
    expect(stepStates(100)).toEqual(['done', 'done', 'done', 'done']);
  });
});

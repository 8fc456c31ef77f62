import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Map state: where the searching screens centre the map, and the lookup result. */
export const $map = persistedSlice<{
  initCoords: { lat: number; lng: number } | null;
  numberData: Record<string, unknown> | null;
}>('map', { initCoords: null, numberData: null });

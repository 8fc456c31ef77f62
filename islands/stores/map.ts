import { persistedSlice } from './persisted-slice';

/**
 * SPEC.md §3 Map state: where the searching screens centre the map, and the lookup result.
 * `phone` is the number the visitor entered, in E.164 (+14155550123), shown by the 'number
 * located' banner and looked up by the searching screens.
 */
export const $map = persistedSlice<{
  phone: string;
  /**
   * The same number as people write it (+1 415 555 0123), formatted when it is entered (the
   * phone form has the phone library loaded anyway), so the screens that only show it need none.
   */
  phoneDisplay: string;
  initCoords: { lat: number; lng: number } | null;
  numberData: Record<string, unknown> | null;
}>('map', { phone: '', phoneDisplay: '', initCoords: null, numberData: null });

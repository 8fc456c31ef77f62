/**
 * SPEC.md §3 Attribution parameters read from the URL: fbclid, gclid, ttclid (and Google's
 * gbraid / wbraid, which stand in for gclid on iOS traffic). Click ids are opaque, case-sensitive
 * tokens (Meta: "do not apply any modifications"); anything with other characters or an absurd
 * length is a hand-edited URL and is ignored rather than passed to an ad network.
 */
const CLICK_ID = /^[A-Za-z0-9._~-]{1,500}$/;

export interface ClickIds {
  fbclid: string | null;
  gclid: string | null;
  ttclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
}

/** Whether `value` has the form of a click id (also the test of a kept one, ad-cookies.ts). */
export function isClickId(value: string): boolean {
  return CLICK_ID.test(value);
}

function clickId(params: URLSearchParams, name: keyof ClickIds): string | null {
  const value = params.get(name);
  return value !== null && isClickId(value) ? value : null;
}

export function readClickIds(params: URLSearchParams): ClickIds {
  return {
    fbclid: clickId(params, 'fbclid'),
    gclid: clickId(params, 'gclid'),
    ttclid: clickId(params, 'ttclid'),
    gbraid: clickId(params, 'gbraid'),
    wbraid: clickId(params, 'wbraid'),
  };
}

/** user_data.google_click_id: the gclid, else the app-campaign ids that replace it. */
export function googleClickId(ids: ClickIds): string | null {
  return ids.gclid ?? ids.gbraid ?? ids.wbraid;
}

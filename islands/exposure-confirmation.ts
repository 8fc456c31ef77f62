import { EXPOSURE_CONFIRMATION_PATH } from '../shared/analytics/tracking';

/**
 * The page's exposure ticket (PageState.exposureTicket), sent back once its islands have
 * hydrated: only then do the visitor's exposures on this page count (docs/statistics.md, "What
 * is counted"). Once per page; a beacon, so leaving the page at once does not cancel it. Its
 * answer changes nothing here, so it is not read.
 */
let ticket: string | undefined;

/** Keeps the ticket until the page is interactive (boot.ts). */
export function holdExposureTicket(pageTicket: string | undefined): void {
  ticket = pageTicket;
}

/** Sends the held ticket, once. */
export function confirmExposure(): void {
  const sent = ticket;
  ticket = undefined;
  if (sent === undefined) return;
  try {
    if (navigator.sendBeacon?.(EXPOSURE_CONFIRMATION_PATH, sent)) return;
    void fetch(EXPOSURE_CONFIRMATION_PATH, {
      method: 'POST',
      body: sent,
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => {});
  } catch {
    // No beacon and no fetch: this visitor's exposure stays unconfirmed, as a script's would.
  }
}

import { reportEscapeCompleted } from './analytics/escape-completed';
import { reportScriptErrors } from './analytics/script-errors';
import { startAnalytics, trackerMayLoad } from './analytics/start';
import { confirmExposure, holdExposureTicket } from './exposure-confirmation';
import { removePreloaderAfterLoad } from './kit/preloader';
import type { PageState } from './protocol';
import { $app } from './stores/app';

const GUARD = 'geofunnelGuard';
let booted = false;
/**
 * Whether this document pushed the guard entry it sits on. Only then is the entry below it this
 * screen's own, one step back within the document. A document can also start on a guard entry an
 * earlier one pushed: after a reload, or when the reload raced the old document's boot, and then
 * the entry below may belong to another page altogether (Chromium left about:blank there).
 */
let guardPushedHere = false;
/**
 * Leaves for the URL a navigate() is taking the page to, while it steps off the Back guard entry
 * first: called by the traversal's popstate and by the timer behind it, whichever comes first,
 * and it replaces the location once. Twice, under load (a popstate later than the timer, or a
 * next page slower than it), the second replace cut the first navigation short (ERR_ABORTED)
 * and asked for the page again.
 */
let leaving: (() => void) | null = null;

function onGuardEntry(): boolean {
  return (history.state as Record<string, unknown> | null)?.[GUARD] === true;
}

/** This screen's path and query: where Try again comes back to (SPEC.md §8 Payment declined). */
export function currentScreenUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * SPEC.md §2: moving on keeps the query string, replaces the history entry and lands at the top
 * (a new document starts at the top). The page sits on the Back guard entry pushed at boot, so
 * it first steps back onto the screen's own entry and replaces that one: the history keeps one
 * entry for the funnel however many screens the visitor walks. On a guard entry it did not push,
 * it replaces the guard entry itself: stepping back could leave the funnel.
 */
export function navigate(url: string): void {
  if (!guardPushedHere || !onGuardEntry()) {
    window.location.replace(url);
    return;
  }
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    window.location.replace(url);
  };
  leaving = leave;
  history.back();
  // Should the traversal never report back, still leave.
  setTimeout(leave, 500);
}

/** SPEC.md §2: the browser Back action re-opens the current path and query instead. */
function holdBackAction(): void {
  if (!onGuardEntry()) {
    history.pushState({ [GUARD]: true }, '', window.location.href);
    guardPushedHere = true;
  }
  window.addEventListener('popstate', () => {
    if (leaving !== null) {
      leaving();
      return;
    }
    history.pushState({ [GUARD]: true }, '', window.location.href);
    guardPushedHere = true;
  });
}

/**
 * Continue forms post to the worker when no script runs; with the script they move straight to
 * the next screen the worker already named, which speculation rules have fetched ahead.
 * Islands that must validate first cancel the submit event (capture phase) before it gets here.
 */
function enhanceContinueForms(): void {
  document.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    const next = form.dataset.next;
    if (event.defaultPrevented || !next) return;
    event.preventDefault();
    navigate(next);
  });
}

/**
 * Marks the page interactive once boot has run and every island has hydrated: styles and tests
 * can tell a page that now answers like the visitor expects. Its exposures are confirmed then.
 */
export function markInteractive(): void {
  document.documentElement.dataset.booted = 'yes';
  confirmExposure();
  trackerMayLoad();
}

/**
 * Runs once per page, before the islands hydrate. Resolves once they may, when there is first an
 * account to take over (a signup form the worker took without script): its code is fetched only
 * then, which is rare, rather than with every page.
 */
export function boot(page: PageState): Promise<void> | undefined {
  if (booted) return;
  booted = true;
  $app.setKey('flow', page.flow);
  holdExposureTicket(page.exposureTicket);
  const { account } = page;
  const adopted = account
    ? import('#browser-only/islands/signup/adopt-account')
        .then(({ adoptAccount }) => adoptAccount(page, account))
        .catch((error: unknown) => console.warn('[geofunnel] account not taken over', error))
    : undefined;
  holdBackAction();
  enhanceContinueForms();
  removePreloaderAfterLoad();
  reportScriptErrors();
  startAnalytics(page);
  try {
    reportEscapeCompleted(localStorage);
  } catch {
    // Storage refused (a private mode): there is no note to read.
  }
  return adopted;
}

import type { PageState } from './protocol';
import { $app } from './stores/app';

let booted = false;

/** SPEC.md §2: moving on keeps the query string, replaces the history entry, lands at the top. */
export function navigate(url: string): void {
  window.location.replace(url);
}

/** SPEC.md §2: the browser Back action re-opens the current path and query instead. */
function holdBackAction(): void {
  const here = window.location.href;
  history.pushState({ geofunnelGuard: true }, '', here);
  window.addEventListener('popstate', () => {
    history.pushState({ geofunnelGuard: true }, '', here);
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

/** Runs once per page, before the islands hydrate. */
export function boot(page: PageState): void {
  if (booted) return;
  booted = true;
  $app.setKey('flow', page.flow);
  holdBackAction();
  enhanceContinueForms();
}

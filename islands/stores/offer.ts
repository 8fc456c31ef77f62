import { atom, onMount } from 'nanostores';
import { $app } from './app';
import { browserOnly } from './browser-only';

/**
 * Whether the visitor's offer countdown reached zero on this page (islands/kit/OfferCountdown):
 * the plan picker and the upsell's purchase then show and charge the regular prices the server
 * sent beside the offer's. Not persisted: each page starts from what the server rendered, which
 * knows the deadline (worker/checkout/offer.ts).
 */
export const $offerEnded = browserOnly(atom(false), 'offer');

/** Seconds left at `nowMs` of an offer ending at `deadlineMs`: whole seconds, never below 0. */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/**
 * The seconds left of the visitor's offer on this page (SPEC.md §4), from what the server
 * rendered. While the store is listened to it counts down each second, mirrored in
 * $app.timerSeconds (null again when the last listener has left, or on pagehide); at 0 the offer
 * ends ($offerEnded). The count is taken from the clock against the deadline, so a throttled
 * background tab or a page brought back from the back/forward cache shows the right time.
 */
export function offerCountdown(initialSeconds: number) {
  const $secondsLeft = browserOnly(atom(initialSeconds), 'offer countdown');
  onMount($secondsLeft, () => runCountdown($secondsLeft, Date.now() + initialSeconds * 1000));
  return $secondsLeft;
}

/** Counts down to `deadline` until stopped; the stop. */
function runCountdown(
  $secondsLeft: ReturnType<typeof offerCountdown>,
  deadline: number,
): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    $app.setKey('timerSeconds', null);
  };
  const tick = () => {
    const left = secondsLeft(deadline, Date.now());
    $secondsLeft.set(left);
    $app.setKey('timerSeconds', left);
    if (left === 0) {
      clearInterval(timer);
      $offerEnded.set(true);
    }
  };
  const start = () => {
    clearInterval(timer);
    tick();
    if ($secondsLeft.value !== 0) timer = setInterval(tick, 1000);
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) start();
  };
  start();
  window.addEventListener('pagehide', stop);
  window.addEventListener('pageshow', onPageShow);
  return () => {
    window.removeEventListener('pagehide', stop);
    window.removeEventListener('pageshow', onPageShow);
    stop();
  };
}

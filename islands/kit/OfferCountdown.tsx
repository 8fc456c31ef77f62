import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $app } from '../stores/app';
import { useAfterHydration } from './use-after-hydration';

/** SPEC.md §4, §9: the offer countdown starts at 300 seconds (5 minutes). */
export const OFFER_SECONDS = 300;

/** Seconds left `elapsedMs` after the start: one less each whole second, never below 0. */
export function secondsLeft(elapsedMs: number): number {
  return Math.max(0, OFFER_SECONDS - Math.floor(elapsedMs / 1000));
}

/** SPEC.md §2: the countdown is shown in minutes, as mm:ss. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = String(Math.floor(whole / 60)).padStart(2, '0');
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Runs the countdown in $app.timerSeconds while the screen is shown (SPEC.md §4): 300 on
 * entering, one less each second down to 0, null again on leaving (unmount or pagehide). The
 * count is taken from the clock, so a throttled background tab still shows the right time.
 */
function useOfferCountdown(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
      $app.setKey('timerSeconds', null);
    };
    const start = () => {
      clearInterval(timer);
      const startedAt = Date.now();
      $app.setKey('timerSeconds', OFFER_SECONDS);
      timer = setInterval(() => {
        const left = secondsLeft(Date.now() - startedAt);
        $app.setKey('timerSeconds', left);
        if (left === 0) clearInterval(timer);
      }, 1000);
    };
    // A page brought back from the back/forward cache is a new visit to the screen.
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
  }, []);
}

/**
 * The running countdown, mm:ss. It sits in the kit's 'offer ends in' banner (screens/kit
 * OfferBanner, SPEC.md §2), which gives it its label. A timer is not a live region, so a screen
 * reader is not interrupted every second.
 */
export function OfferCountdown() {
  const { timerSeconds } = useStore($app, { keys: ['timerSeconds'] });
  // The server renders 05:00 and knows no stored value; the first browser render must match it,
  // so the stored value is shown only once mounted.
  const mounted = useAfterHydration();
  useOfferCountdown();
  const seconds = mounted ? (timerSeconds ?? OFFER_SECONDS) : OFFER_SECONDS;
  return (
    <span className="offer-countdown" role="timer" dir="ltr">
      {formatCountdown(seconds)}
    </span>
  );
}

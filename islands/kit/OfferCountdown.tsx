import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $app } from '../stores/app';
import { $offerEnded } from '../stores/offer';
import { useAfterHydration } from './use-after-hydration';

/** Seconds left at `nowMs` of an offer ending at `deadlineMs`: whole seconds, never below 0. */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** SPEC.md §2: the countdown is shown in minutes, as mm:ss. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = String(Math.floor(whole / 60)).padStart(2, '0');
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * Runs the countdown in $app.timerSeconds while the screen is shown (SPEC.md §4): from the
 * seconds the server rendered (what is left of the visitor's deadline, kept by the worker), one
 * less each second down to 0, null again on leaving (unmount or pagehide). The count is taken
 * from the clock against the deadline, so a throttled background tab or a page brought back
 * from the back/forward cache shows the right time. At 0 the offer ends ($offerEnded).
 */
function useOfferCountdown(initialSeconds: number): void {
  useEffect(() => {
    const deadline = Date.now() + initialSeconds * 1000;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
      $app.setKey('timerSeconds', null);
    };
    const tick = () => {
      const left = secondsLeft(deadline, Date.now());
      $app.setKey('timerSeconds', left);
      if (left === 0) {
        clearInterval(timer);
        $offerEnded.set(true);
      }
    };
    const start = () => {
      clearInterval(timer);
      tick();
      if ($app.get().timerSeconds !== 0) timer = setInterval(tick, 1000);
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
  }, [initialSeconds]);
}

export interface OfferCountdownProps {
  /** What is left of the visitor's offer, in seconds, as the server rendered it; 0: ended. */
  secondsLeft: number;
  /** 'Offer ends in'. */
  label: string;
  /** What the banner says once the offer ended ('This offer has ended'). */
  endedText: string;
}

/**
 * SPEC.md §2's 'offer ends in' banner with its running countdown, mm:ss, from what the server
 * rendered (the page is right before any script runs); at zero it says the offer ended, in a
 * polite live region so a screen reader hears it once. The timer itself is not a live region,
 * so a screen reader is not interrupted every second.
 */
export function OfferCountdown({ secondsLeft: initial, label, endedText }: OfferCountdownProps) {
  const { timerSeconds } = useStore($app, { keys: ['timerSeconds'] });
  // The first browser render matches the server's; the running value is shown once mounted.
  const mounted = useAfterHydration();
  useOfferCountdown(initial);
  const seconds = mounted ? (timerSeconds ?? initial) : initial;
  return (
    <div className="offer-banner" aria-live="polite">
      {seconds > 0 ? (
        <>
          <span className="offer-banner__label">{label}</span>
          <div className="offer-banner__time">
            <span className="offer-countdown" role="timer" dir="ltr">
              {formatCountdown(seconds)}
            </span>
          </div>
        </>
      ) : (
        <span className="offer-banner__label offer-banner__label--ended">{endedText}</span>
      )}
    </div>
  );
}

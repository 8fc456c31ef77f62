import { useState } from 'react';
import { offerCountdown } from '../stores/offer';
import { useWorkingStore } from './use-working-store';

/** SPEC.md §2: the countdown is shown in minutes, as mm:ss. */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = String(Math.floor(whole / 60)).padStart(2, '0');
  return `${minutes}:${String(whole % 60).padStart(2, '0')}`;
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
  // Counts from the server's figure, so the first browser render matches its HTML.
  const [$secondsLeft] = useState(() => offerCountdown(initial));
  const seconds = useWorkingStore($secondsLeft);
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

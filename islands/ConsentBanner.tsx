import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect } from 'react';
import {
  $consentAnswer,
  answerConsent,
  isConsentAnswer,
  readConsentCookie,
} from './pixels/consent';

export interface ConsentBannerProps {
  /** The region's accessible name. */
  label: string;
  /** The one-sentence explanation. */
  text: string;
  accept: string;
  decline: string;
  /** Where the form posts before the island has hydrated (worker/routes/consent.ts). */
  action: string;
}

/**
 * The consent question, on pages where the ad tools wait for it: a named region with
 * one sentence and two buttons. The buttons post a real form, so an answer given before the
 * script arrives still counts; once hydrated the answer is stored in the `gf_consent` cookie
 * here, the pixels hear it at once (islands/pixels/run.ts), and the banner goes.
 */
export default function ConsentBanner({
  label,
  text,
  accept,
  decline,
  action,
}: ConsentBannerProps) {
  const answer = useStore($consentAnswer);

  // A page fetched ahead before the visitor answered on the previous one still asks: the cookie
  // has the answer the worker did not see yet.
  useEffect(() => {
    const stored = readConsentCookie(document.cookie);
    if (stored !== null && $consentAnswer.get() === null) $consentAnswer.set(stored);
  }, []);

  if (answer !== null) return null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!isConsentAnswer(submitter?.value)) return;
    event.preventDefault();
    answerConsent(submitter.value);
  };

  return (
    <section className="consent" aria-label={label}>
      <p className="consent__text">{text}</p>
      <form method="post" action={action} className="consent__actions" onSubmit={onSubmit}>
        <button type="submit" name="answer" value="granted" className="consent__button">
          {accept}
        </button>
        <button type="submit" name="answer" value="denied" className="consent__button">
          {decline}
        </button>
      </form>
    </section>
  );
}

import type { FormEvent } from 'react';
import { useWorkingStore } from './kit/use-working-store';
import { $consentAnswer, answerConsent, isConsentAnswer } from './pixels/consent';

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
  // A page fetched ahead was rendered asking; the store, as it starts, takes the answer the
  // cookie has since had (./pixels/consent.ts).
  const answer = useWorkingStore($consentAnswer);

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

import { SupportLinks } from '../kit/SupportLinks';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';

/** SPEC.md §8: what the visitor can check before trying the card again. */
const HINTS = ['balance', 'limits', 'issuer'] as const;

/**
 * The 'Payment declined' page (SPEC.md §2, §8) with its three hints. Try again leads back to the
 * checkout the visitor paid on (else the worker's default checkout); nothing was charged.
 */
export function PaymentDeclinedScreen({ screen, t, continueAction, next }: ScreenProps) {
  return (
    <section className="screen declined" aria-labelledby="screen-title">
      <div className="declined__icon" aria-hidden="true">
        !
      </div>
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
      <h2 className="declined__hints-title">{t('after.declined.hints_label')}</h2>
      <ul className="declined__hints">
        {HINTS.map((hint) => (
          <li key={hint} className="declined__hint">
            {t(`after.declined.hints.${hint}`)}
          </li>
        ))}
      </ul>
      <Island
        name="TryAgain"
        props={{ action: continueAction, next, label: t('after.declined.try_again') }}
      />
      <SupportLinks t={t} />
    </section>
  );
}

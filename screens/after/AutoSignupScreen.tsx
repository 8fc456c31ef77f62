import { ContinueForm } from '../layout/ContinueForm';
import type { ScreenProps } from '../types';
import { TestNotice } from './TestNotice';

/** auto-signup, the first screen of the stripe_test flow used by QA (SPEC.md §2). */
export function AutoSignupScreen({ screen, t, continueAction, next }: ScreenProps) {
  return (
    <section className="screen test-screen" aria-labelledby="screen-title">
      <TestNotice t={t} />
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
      <p>{t('after.test.auto_signup_text')}</p>
      <ContinueForm action={continueAction} next={next} label={t('continue')} />
    </section>
  );
}

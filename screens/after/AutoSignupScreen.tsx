import { SIGN_UP_ERROR_KEYS } from '../../shared/api/error-text';
import { translatedErrorTexts } from '../error-texts';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { TestNotice } from './TestNotice';

/**
 * auto-signup, the first screen of the stripe_test flow used by QA (SPEC.md §2): Continue creates
 * an account with a generated test address.
 */
export function AutoSignupScreen(props: ScreenProps) {
  const { screen, t, continueAction, next, visitorId, landingType } = props;
  return (
    <section className="screen test-screen" aria-labelledby="screen-title">
      <TestNotice t={t} />
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
      <p>{t('after.test.auto_signup_text')}</p>
      <Island
        name="AutoSignup"
        props={{
          action: continueAction,
          next,
          label: t('continue'),
          loadingMessage: t('after.test.auto_signup_loading'),
          userUuid: visitorId,
          landingType,
          errors: translatedErrorTexts(t, SIGN_UP_ERROR_KEYS),
        }}
      />
    </section>
  );
}

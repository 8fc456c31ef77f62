import { GOOGLE_SIGN_IN_ERROR_KEYS } from '../../islands/GoogleSignIn';
import type { SignupFormProps } from '../../islands/SignupForm';
import { SIGN_UP_ERROR_KEYS } from '../../shared/api/error-text';
import { translatedErrorTexts } from '../error-texts';
import { Divider } from '../kit/Divider';
import { InAppWayOut } from '../kit/InAppWayOut';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';

/**
 * Continue with Google (SPEC.md §4 Signup): the 'or' divider and Google's button. Inside an ad
 * app's own browser, where Google refuses to sign anyone in, a note takes the button's place.
 */
export function GoogleSection(props: ScreenProps) {
  const { screen, t, next, language, visitorId, landingType, googleClientId, inApp } = props;
  return inApp ? (
    // Google refuses its sign-in inside apps' own browsers (403 disallowed_useragent): no
    // button that would fail, the email form above instead.
    <InAppWayOut t={t} screen={screen} inApp={inApp} note="signup.google.in_app" />
  ) : (
    <>
      <Divider t={t} />
      <Island
        name="GoogleSignIn"
        props={{
          clientId: googleClientId,
          language,
          next,
          userUuid: visitorId,
          landingType,
          text: {
            button: t('signup.google.button'),
            creating: t('signup.creating_account'),
          },
          errors: translatedErrorTexts(t, GOOGLE_SIGN_IN_ERROR_KEYS),
        }}
      />
    </>
  );
}

/** The email form's props: where it posts, who signs up, and its texts (SignupForm.tsx). */
export function signupFormProps({
  t,
  continueAction,
  next,
  production,
  visitorId,
  landingType,
  refusedEmail,
  brand,
}: ScreenProps): SignupFormProps {
  return {
    action: continueAction,
    next,
    production: production ?? true,
    userUuid: visitorId,
    landingType,
    text: {
      label: t('kit.email.label'),
      placeholder: t('kit.email.placeholder'),
      shortcuts: t('kit.email.shortcuts_label'),
      // SPEC.md §2: the Continue button's default label, the key `continue`.
      submit: t('continue'),
      busy: t('kit.continue_busy'),
      creating: t('signup.creating_account'),
      invalid: t('email_error_message_invalid'),
      empty: t('email_error_message_empty'),
      takenNext: t('signup.email_taken.next'),
      useAnother: t('signup.email_taken.use_another'),
    },
    stores: [
      { name: t('kit.store.app_store'), href: brand.stores.appStore },
      { name: t('kit.store.google_play'), href: brand.stores.googlePlay },
    ],
    errors: translatedErrorTexts(t, SIGN_UP_ERROR_KEYS),
    refused: refusedEmail,
  };
}

import type { BrowserSignupResponse } from '../../shared/api/contract';
import {
  type ErrorTexts,
  readableText,
  signupErrorText,
  socialSignInErrorText,
  type VisitorText,
} from '../../shared/api/error-text';
import { emit } from '../analytics/emit';
import { signInWithSocialToken, signUp } from '../api/client';
import { navigate } from '../boot';
import { showError } from '../stores/error';
import { $events } from '../stores/events';
import { setLoading } from '../stores/loader';
import { $signup } from '../stores/signup';
import { loadCountry, loadDeeplink } from './account-extras';
import { loadPaymentSettings } from './payment-settings';
import type { Sleep } from './retry';

/** What a sign-up needs from the page: who the visitor is and where the funnel goes next. */
export interface SignUpContext {
  /** The visitor uuid (SPEC.md §4), sent as user_uuid; the worker sets it from its own cookie. */
  userUuid: string;
  /** SPEC.md §4 split test: 'split_type' or 'split_type_subtype'. */
  landingType: string;
  /** The next screen's URL, query kept; null stays on the screen. */
  next: string | null;
  /** The translated error texts the failure may need (shared/api/error-text.ts). */
  texts: Partial<ErrorTexts>;
  /** Shown on the loading overlay while the account is being created. */
  loadingMessage?: string;
  /** Pause between payment-settings retries; tests inject their own. */
  sleep?: Sleep;
  /**
   * Told, instead of the toast, that the address already has an account (SPEC.md §5 Email
   * already taken), by a form that explains it beside its field until the address changes.
   */
  onEmailTaken?: (text: string) => void;
}

/**
 * SPEC.md §4 Signup, on success: isSuccess, the account's ids (the access token stays in the
 * worker's HttpOnly cookie), then payment settings and, alongside, deeplink and country; then
 * the next screen.
 */
async function completeSignUp(
  answer: BrowserSignupResponse,
  fields: { email?: string; emailValidity?: boolean },
  context: SignUpContext,
): Promise<void> {
  // Empty when the product API named no user id: the analytics events then go without one.
  const userId = answer.data.entity.external_user_id ?? '';
  const email = fields.email ?? $signup.get().email;
  $signup.set({
    ...$signup.get(),
    ...fields,
    // SPEC.md §5: the name falls back to the email.
    name: $signup.get().name || email,
    uuid: context.userUuid,
    isSuccess: true,
    userId,
    deeplinkToken: answer.data.deeplink_token,
  });
  // SPEC.md §4: "an analytics user id is set".
  const events = $events.get();
  $events.setKey('analyticsData', { ...events.analyticsData, user_id: userId });
  emit('lead');
  await Promise.all([loadPaymentSettings({ sleep: context.sleep }), loadDeeplink(), loadCountry()]);
  if (context.next) navigate(context.next);
}

/** SPEC.md §4: on failure the error message is shown and loading is cleared. */
function fail(text: VisitorText, context: SignUpContext): false {
  setLoading(false);
  const shown = readableText(text, context.texts);
  if ('key' in text && text.key === 'email_exists' && context.onEmailTaken) {
    context.onEmailTaken(shown);
  } else {
    showError(shown);
  }
  return false;
}

/**
 * Email sign-up (SPEC.md §4 Signup, §7 POST /signup). Resolves true once the account exists and
 * the visitor is moving on, false after showing why it failed. Never rejects.
 */
export async function signUpWithEmail(email: string, context: SignUpContext): Promise<boolean> {
  const address = email.trim();
  setLoading(true, context.loadingMessage);
  let answer: BrowserSignupResponse;
  try {
    answer = await signUp({
      registration_source: 'email',
      email: address,
      user_uuid: context.userUuid,
      landing_type: context.landingType,
      name: address,
    });
  } catch (error) {
    return fail(signupErrorText(error), context);
  }
  await completeSignUp(answer, { email: address, emailValidity: true }, context);
  return true;
}

/**
 * Google sign-in with the ID token Google Identity Services handed the page (SPEC.md §4: "social
 * sign-in follows the same path, with the provider google"). The worker verifies the token.
 */
export async function signUpWithGoogle(
  credential: string,
  context: SignUpContext,
): Promise<boolean> {
  setLoading(true, context.loadingMessage);
  let answer: BrowserSignupResponse;
  try {
    answer = await signInWithSocialToken({
      access_token: credential,
      driver: 'google',
      landing_type: context.landingType,
      user_uuid: context.userUuid,
    });
  } catch (error) {
    return fail(socialSignInErrorText(error), context);
  }
  await completeSignUp(answer, {}, context);
  return true;
}

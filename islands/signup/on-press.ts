import { loadOnPress } from '../island-loading';
import { showError } from '../stores/error';
import type { SignUpContext } from './sign-up';

/**
 * An email sign-up from a press: the signup screen's form, auto-signup's button. The sign-up
 * code (with the API client and its schemas) loads on the press, not with the page, so that
 * hydrating the form is all the page runs at first; it loads as an island's module does
 * (../island-loading.ts: tried once more, then reported as chunk_load_failed, SPEC.md §8, §9).
 * When it still cannot load, a `form` the worker answers is posted as it is without script, and
 * the worker creates the account (worker/routes/screens/posted-forms.ts): a file this document
 * failed to fetch stays failed in it, the next document asks anew. Without such a form, or when
 * the sign-up fails for a reason it did not show itself, the toast says signup_failed (SPEC.md
 * §8) and the visitor stays. Whether the account was created or the post is on its way.
 */
export async function signUpOnPress(
  email: string,
  context: SignUpContext & { texts: { signup_failed: string }; form?: HTMLFormElement },
): Promise<boolean> {
  let signUp: typeof import('#browser-only/islands/signup/sign-up');
  try {
    signUp = await loadOnPress('sign-up', () => import('#browser-only/islands/signup/sign-up'));
  } catch {
    if (context.form) {
      context.form.submit();
      return true;
    }
    showError(context.texts.signup_failed);
    return false;
  }
  try {
    return await signUp.signUpWithEmail(email, context);
  } catch {
    showError(context.texts.signup_failed);
    return false;
  }
}

/**
 * A Google credential signed up, the sign-up code loaded as for the email (signUpOnPress). When
 * it cannot load, the rejection is the caller's to say (./google-credential.ts).
 */
export async function googleSignUpOnPress(
  credential: string,
  context: SignUpContext,
): Promise<boolean> {
  const { signUpWithGoogle } = await loadOnPress(
    'sign-up',
    () => import('#browser-only/islands/signup/sign-up'),
  );
  return signUpWithGoogle(credential, context);
}

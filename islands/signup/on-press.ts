import { showError } from '../stores/error';
import type { SignUpContext } from './sign-up';

/**
 * An email sign-up from a press: the signup screen's form, auto-signup's button. The sign-up
 * code (with the API client and its schemas) loads on the press, not with the page, so that
 * hydrating the form is all the page runs at first. When it cannot load, or fails for a reason
 * it did not show itself, the toast says signup_failed (SPEC.md §8) and the visitor stays.
 * Whether the account was created.
 */
export async function signUpOnPress(
  email: string,
  context: SignUpContext & { texts: { signup_failed: string } },
): Promise<boolean> {
  try {
    const { signUpWithEmail } = await import('./sign-up');
    return await signUpWithEmail(email, context);
  } catch {
    showError(context.texts.signup_failed);
    return false;
  }
}

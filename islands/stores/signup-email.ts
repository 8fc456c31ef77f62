import { atom, onMount } from 'nanostores';
import { isValidEmail } from '../../shared/email-validity';
import { browserOnly } from './browser-only';
import { $signup } from './signup';

export type SignupEmailStore = ReturnType<typeof signupEmailStore>;

/**
 * The address in a sign-up form (islands/SignupForm.tsx): what the server rendered (empty, or
 * the address it refused) until the island listens (islands/kit/use-working-store.ts); then,
 * when nothing was typed, the address kept in $signup, so the form starts from it in the real
 * browser Open in browser carried it to, or after a reload.
 */
export function signupEmailStore(rendered: string) {
  const $email = browserOnly(atom(rendered), 'signup email');
  onMount($email, () => {
    const kept = $signup.get().email;
    if (kept && !$email.value) $email.set(kept);
  });
  return $email;
}

/**
 * The visitor typed `value`. A valid address is kept in $signup as it is typed, so Open in
 * browser can carry it to the real browser; a half-typed one is nobody's.
 */
export function typeSignupEmail($email: SignupEmailStore, value: string): void {
  $email.set(value);
  if (isValidEmail(value)) {
    $signup.setKey('email', value);
    $signup.setKey('emailValidity', true);
  }
}

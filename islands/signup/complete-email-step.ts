import { navigate } from '../boot';
import { $signup } from '../stores/signup';

/**
 * The email step is done: the address goes into the signup slice (SPEC.md §3 email,
 * emailValidity) and the visitor moves on. The account itself is created by the portal call
 * that replaces this hand-off in the sign-up issue.
 */
export function completeEmailStep(email: string, next: string | null): void {
  $signup.setKey('email', email.trim());
  $signup.setKey('emailValidity', true);
  if (next) navigate(next);
}

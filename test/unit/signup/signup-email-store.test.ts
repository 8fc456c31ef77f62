// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { $signup } from '../../../islands/stores/signup';
import { signupEmailStore, typeSignupEmail } from '../../../islands/stores/signup-email';

beforeEach(() => {
  localStorage.clear();
  $signup.set({ ...$signup.get(), email: '', emailValidity: false });
});

describe('the sign-up form address (SPEC.md §5)', () => {
  it('starts from the kept address only once the island listens', () => {
    $signup.setKey('email', 'kept@example.com');
    const $email = signupEmailStore('');
    expect($email.value).toBe('');
    $email.listen(() => {});
    expect($email.value).toBe('kept@example.com');
  });

  it('keeps what the server refused, or the visitor typed first, over the kept address', () => {
    $signup.setKey('email', 'kept@example.com');
    const refused = signupEmailStore('taken@example.com');
    refused.listen(() => {});
    expect(refused.value).toBe('taken@example.com');
    const typed = signupEmailStore('');
    typeSignupEmail(typed, 'typed@example.com');
    typed.listen(() => {});
    expect(typed.value).toBe('typed@example.com');
  });

  it('keeps a valid address in the signup state as it is typed, not a half-typed one', () => {
    const $email = signupEmailStore('');
    typeSignupEmail($email, 'anna@gm');
    expect($email.value).toBe('anna@gm');
    expect($signup.get()).toMatchObject({ email: '', emailValidity: false });
    typeSignupEmail($email, 'anna@gmail.com');
    expect($signup.get()).toMatchObject({ email: 'anna@gmail.com', emailValidity: true });
  });
});
